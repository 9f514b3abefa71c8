package detect

import (
	"embed"
	"io/fs"
)

// bundledFiles holds the shipped manifests, compiled into the binary.
//
//go:embed harnesses/*.toml
var bundledFiles embed.FS

// BundledFS returns the shipped manifest files (harnesses/*.toml).
func BundledFS() fs.FS { return bundledFiles }
