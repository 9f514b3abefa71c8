package cli_test

import (
	"testing"

	"github.com/tuios/tuios/internal/standin"
)

// startStandin starts the Messages and Responses API stand-in for a test;
// it closes when the test ends.
func startStandin(t testing.TB, opt standin.Options) *standin.Server {
	t.Helper()
	api, err := standin.Start(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { api.Close() })
	return api
}

// startGeminiStandin is startStandin for the Gemini API stand-in.
func startGeminiStandin(t testing.TB, opt standin.Options) *standin.Gemini {
	t.Helper()
	api, err := standin.StartGemini(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { api.Close() })
	return api
}

// standinURL starts the stand-in an agent talks to (Gemini's, or the
// Messages and Responses one) and gives its URL.
func standinURL(t testing.TB, opt standin.Options, gemini bool) string {
	t.Helper()
	if gemini {
		return startGeminiStandin(t, opt).URL()
	}
	return startStandin(t, opt).URL()
}

// codexConfig is a Codex config.toml whose model provider is the
// Responses stand-in at url (its key in TUIOS_STANDIN_KEY), with the
// approval and sandbox policies given and the folders trusted.
func codexConfig(url, approval, sandbox string, trusted ...string) string {
	conf := `model = "gpt-stand-in"
model_provider = "standin"
approval_policy = "` + approval + `"
sandbox_mode = "` + sandbox + `"
check_for_update_on_startup = false

[model_providers.standin]
name = "Stand-in"
base_url = "` + url + `/v1"
wire_api = "responses"
env_key = "TUIOS_STANDIN_KEY"
`
	for _, d := range trusted {
		conf += "\n[projects.\"" + d + "\"]\ntrust_level = \"trusted\"\n"
	}
	return conf
}
