// Package paramtest is what the tests of the daemon's clients (the CLI,
// the attach client) share to check that the params they send are what
// the daemon decodes: a daemon run in the test process whose list-verbs
// gives every verb's params, the schema of a proto params type as
// list-verbs' JSON carries it, and a params value with every field set to
// something its tags accept.
//
// It is test support: nothing outside _test files imports it.
package paramtest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/internal/client"
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/daemon"
	"github.com/tuios/tuios/internal/proto"
)

// ListVerbs runs a daemon in the test process on a private socket (it
// stops with the test) and returns list-verbs' params, by verb.
func ListVerbs(tb testing.TB) map[string][]proto.Param {
	tb.Helper()
	dir := tb.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "s"), 0o700); err != nil {
		tb.Fatal(err)
	}
	sock := filepath.Join(dir, "s", "tuios.sock")
	srv, err := daemon.New(daemon.Options{Socket: sock, Shell: "/bin/sh", Env: []string{"PATH=/usr/bin:/bin", "HOME=" + dir},
		StateDir: filepath.Join(dir, "state"), Tracker: detect.TrackerOptions{StallAfter: -1, Home: dir}, Config: &config.File{}})
	if err != nil {
		tb.Fatal(err)
	}
	if err := srv.Listen(); err != nil {
		tb.Fatal(err)
	}
	go srv.Serve(context.Background())
	tb.Cleanup(func() { srv.Close() })
	c, err := client.Dial(client.Options{Socket: sock})
	if err != nil {
		tb.Fatal(err)
	}
	defer c.Close()
	var list proto.VerbList
	if err := c.Call("list-verbs", nil, &list); err != nil {
		tb.Fatal(err)
	}
	out := map[string][]proto.Param{}
	for _, v := range list.Verbs {
		out[v.Verb] = v.Params
	}
	return out
}

// SchemaAsListed is proto.Schema of params as list-verbs' JSON carries
// it, to compare with what ListVerbs returned.
func SchemaAsListed(tb testing.TB, params any) []proto.Param {
	tb.Helper()
	b, err := json.Marshal(proto.Schema(params))
	if err != nil {
		tb.Fatal(err)
	}
	var out []proto.Param
	if err := json.Unmarshal(b, &out); err != nil {
		tb.Fatal(err)
	}
	return out
}

// Fill sets every exported field of the params struct v to a value its
// tags accept: the first accepted word, the minimum, one element.
func Fill(v reflect.Value) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		if t.Field(i).IsExported() {
			fillValue(t.Field(i), v.Field(i))
		}
	}
}

func fillValue(f reflect.StructField, fv reflect.Value) {
	first := "x"
	if acc := f.Tag.Get("accepted"); acc != "" {
		first, _, _ = strings.Cut(acc, ",")
	}
	if fv.Type() == reflect.TypeOf(json.RawMessage(nil)) {
		fv.Set(reflect.ValueOf(json.RawMessage(`"v"`)))
		return
	}
	switch fv.Kind() {
	case reflect.Struct:
		Fill(fv)
	case reflect.Pointer:
		p := reflect.New(fv.Type().Elem())
		fillValue(f, p.Elem())
		fv.Set(p)
	case reflect.String:
		fv.SetString(first)
	case reflect.Bool:
		fv.SetBool(true)
	case reflect.Int, reflect.Int64:
		n := int64(1)
		if lo, err := strconv.ParseInt(f.Tag.Get("min"), 10, 64); err == nil && lo > 0 {
			n = lo
		}
		fv.SetInt(n)
	case reflect.Slice:
		s := reflect.MakeSlice(fv.Type(), 1, 1)
		switch s.Index(0).Kind() {
		case reflect.String:
			s.Index(0).SetString(first)
		case reflect.Int:
			s.Index(0).SetInt(1)
		}
		fv.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(fv.Type())
		val := reflect.New(fv.Type().Elem()).Elem()
		fillValue(f, val)
		m.SetMapIndex(reflect.ValueOf("k"), val)
		fv.Set(m)
	}
}
