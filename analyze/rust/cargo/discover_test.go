package cargo

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// writeTree writes files under a temporary root and returns the root and
// the .rs paths among them, sorted, as the loader would list them.
func writeTree(t testing.TB, files map[string]string) (string, []string) {
	t.Helper()
	root := filepath.Join(t.TempDir(), "repo")
	var rs []string
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(p, ".rs") {
			rs = append(rs, p)
		}
	}
	sort.Strings(rs)
	return root, rs
}

// describe renders what Discover found, one line per package, dependency,
// target and problem, in a stable order.
func describe(pkgs map[string]*Package, problems []analyze.Problem) []string {
	dirs := make([]string, 0, len(pkgs))
	for d := range pkgs {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	var out []string
	for _, d := range dirs {
		p := pkgs[d]
		out = append(out, fmt.Sprintf("package %s name=%s manifest=%s", p.Dir, p.Name, p.Manifest))
		deps := make([]string, 0, len(p.Deps))
		for k, v := range p.Deps {
			deps = append(deps, fmt.Sprintf("  dep %s=%s", k, v))
		}
		sort.Strings(deps)
		out = append(out, deps...)
		for _, t := range p.Targets {
			out = append(out, fmt.Sprintf("  %s %s %s", t.Kind, t.Name, t.Root))
		}
	}
	for _, pr := range problems {
		out = append(out, fmt.Sprintf("problem %s %s", pr.Kind, pr.Path))
	}
	return out
}

func TestDiscover(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{
			name: "workspace",
			files: map[string]string{
				"Cargo.toml": `[workspace]
members = ["crates/*", "tools/gen"]
exclude = ["crates/skipped"]

[workspace.dependencies]
shared-util = { path = "crates/util" }
serde = "1"
`,
				"crates/util/Cargo.toml":             "[package]\nname = \"shared-util\"\n",
				"crates/util/src/lib.rs":             "",
				"crates/app/Cargo.toml":              "[package]\nname = \"my-app\"\nbuild = \"gen/build.rs\"\n\n[lib]\nname = \"app_core\"\n\n[[bin]]\nname = \"cli\"\npath = \"cmd/cli.rs\"\n\n[[bin]]\nname = \"gone\"\npath = \"../../../etc/passwd\"\n\n[[test]]\nname = \"declared\"\n\n[dependencies]\nu = { package = \"shared-util\", path = \"../util\" }\nshared-util = { workspace = true }\nserde = { workspace = true }\nregex = \"1\"\nlog = { version = \"0.4\" }\n\n[target.'cfg(unix)'.dev-dependencies]\nunix-helper = { path = \"../util\", package = \"shared-util\" }\n",
				"crates/app/src/lib.rs":              "",
				"crates/app/src/main.rs":             "",
				"crates/app/cmd/cli.rs":              "",
				"crates/app/src/bin/extra.rs":        "",
				"crates/app/src/bin/multi/main.rs":   "",
				"crates/app/src/bin/multi/helper.rs": "",
				"crates/app/tests/it.rs":             "",
				"crates/app/tests/declared/main.rs":  "",
				"crates/app/tests/common/mod.rs":     "",
				"crates/app/examples/demo.rs":        "",
				"crates/app/benches/speed.rs":        "",
				"crates/app/gen/build.rs":            "",
				"crates/app/build.rs":                "",
				"crates/skipped/Cargo.toml":          "[package]\nname = \"skipped\"\n",
				"crates/skipped/src/lib.rs":          "",
				"crates/nomanifest/src/lib.rs":       "",
				"tools/gen/src/main.rs":              "",
			},
			want: []string{
				"package crates/app name=my-app manifest=crates/app/Cargo.toml",
				"  dep shared_util=shared-util",
				"  dep u=shared-util",
				"  dep unix_helper=shared-util",
				"  lib app_core crates/app/src/lib.rs",
				"  bin cli crates/app/cmd/cli.rs",
				"  bin extra crates/app/src/bin/extra.rs",
				"  bin multi crates/app/src/bin/multi/main.rs",
				"  bin my_app crates/app/src/main.rs",
				"  test declared crates/app/tests/declared/main.rs",
				"  test it crates/app/tests/it.rs",
				"  example demo crates/app/examples/demo.rs",
				"  bench speed crates/app/benches/speed.rs",
				"  build build_script_build crates/app/gen/build.rs",
				// Excluded from the workspace, it is still the nearest
				// manifest above its files.
				"package crates/skipped name=skipped manifest=crates/skipped/Cargo.toml",
				"  lib skipped crates/skipped/src/lib.rs",
				"package crates/util name=shared-util manifest=crates/util/Cargo.toml",
				"  lib shared_util crates/util/src/lib.rs",
				"problem load crates/nomanifest",
				"problem load tools/gen",
			},
		},
		{
			name: "auto targets off",
			files: map[string]string{
				"Cargo.toml":            "[package]\nname = \"quiet\"\nautobins = false\nautotests = false\nautoexamples = false\nautobenches = false\nbuild = false\n\n[[bin]]\nname = \"quiet\"\n\n[[example]]\nname = \"kept\"\n",
				"src/main.rs":           "",
				"src/bin/x.rs":          "",
				"tests/t.rs":            "",
				"examples/e.rs":         "",
				"examples/kept/main.rs": "",
				"benches/b.rs":          "",
				"build.rs":              "",
			},
			want: []string{
				"package . name=quiet manifest=Cargo.toml",
				"  bin quiet src/main.rs",
				"  example kept examples/kept/main.rs",
			},
		},
		{
			name: "invalid member manifest keeps the layout",
			files: map[string]string{
				"Cargo.toml":        "[workspace]\nmembers = [\"m-1\"]\n",
				"m-1/Cargo.toml":    "[package\nname = = \"broken",
				"m-1/src/lib.rs":    "",
				"m-1/src/main.rs":   "",
				"m-1/build.rs":      "",
				"m-1/tests/t.rs":    "",
				"m-1/examples/x.rs": "",
			},
			want: []string{
				"package m-1 name=m-1 manifest=m-1/Cargo.toml",
				"  lib m_1 m-1/src/lib.rs",
				"  bin m_1 m-1/src/main.rs",
				"  test t m-1/tests/t.rs",
				"  example x m-1/examples/x.rs",
				"  build build_script_build m-1/build.rs",
				"problem load m-1/Cargo.toml",
			},
		},
		{
			// An invalid manifest found above a file has no [package], so
			// it gives no package: the loader's layout rules place its
			// files. The root manifest is read twice (for a [workspace],
			// then as the nearest manifest), and so reported twice.
			name: "invalid root manifest gives no package",
			files: map[string]string{
				"Cargo.toml":  "[package\nname = = \"broken",
				"src/lib.rs":  "",
				"src/main.rs": "",
			},
			want: []string{
				"problem load Cargo.toml",
				"problem load Cargo.toml",
			},
		},
		{
			name: "members outside the repository",
			files: map[string]string{
				"Cargo.toml":        "[workspace]\nmembers = [\"../outside\", \"/abs\", \"a\", \"a\"]\n",
				"a/Cargo.toml":      "[package]\nname = \"a-b\"\n[lib]\npath = \"../x.rs\"\n",
				"x.rs":              "",
				"a/src/lib.rs":      "",
				"loose/src/main.rs": "",
			},
			want: []string{
				// [lib] path may name any listed file, even one outside
				// the package directory, as Cargo allows.
				"package a name=a-b manifest=a/Cargo.toml",
				"  lib a_b x.rs",
				"problem load Cargo.toml",
				"problem load Cargo.toml",
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, files := writeTree(t, tc.files)
			pkgs, problems := Discover(root, files)
			if diff := cmp.Diff(tc.want, describe(pkgs, problems)); diff != "" {
				t.Errorf("Discover (-want +got):\n%s", diff)
			}
			for dir, p := range pkgs {
				if p.Dir != dir {
					t.Errorf("package keyed %q has Dir %q", dir, p.Dir)
				}
				for _, tg := range p.Targets {
					if tg.Package != p {
						t.Errorf("target %s does not point back to its package %s", tg.Root, dir)
					}
				}
			}
		})
	}
}

func TestCrateName(t *testing.T) {
	for in, want := range map[string]string{"user-svc": "user_svc", "plain": "plain", "a-b-c": "a_b_c", "": ""} {
		if got := CrateName(in); got != want {
			t.Errorf("CrateName(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzDiscover: a Cargo.toml is whatever the repository holds. On any
// root manifest and workspace member manifest, Discover returns without a
// panic, and every target it gives is a listed file of a package it
// returns, with a crate name code can write.
func FuzzDiscover(f *testing.F) {
	f.Add("[package]\nname = \"m\"\nversion = \"0.1.0\"\n", "[package]\nname = \"b\"\n")
	f.Add("[workspace]\nmembers = [\"crates/*\", \"../outside\", \"/abs\", \"crates/b\"]\nexclude = [\"crates/x\"]\n", "[package]\nname = \"b\"\n[lib]\npath = \"../../../etc/passwd\"\n")
	f.Add("[workspace]\nmembers = \"not a list\"\n", "[[bin]]\nname = 3\n")
	f.Add("[package\nname = = \"broken", "")
	f.Add("[package]\nname = \"m\"\nbuild = 7\n[lib]\npath = \"src/../../x.rs\"\n[[bin]]\npath = \"/etc/passwd\"\n[dependencies]\nb = { path = \"crates/b\" }\n[workspace.dependencies]\nc = { path = \"../c\" }\n", "[package]\nname = \"b\"\nautobins = \"yes\"\n[[test]]\nname = \"t\"\npath = \"tests/t.rs\"\n")
	f.Fuzz(func(t *testing.T, root, member string) {
		dir, files := writeTree(t, map[string]string{
			"Cargo.toml":          root,
			"crates/b/Cargo.toml": member,
			"src/lib.rs":          "",
			"src/main.rs":         "",
			"crates/b/src/lib.rs": "",
			"crates/b/tests/t.rs": "",
		})
		listed := map[string]bool{}
		for _, f := range files {
			listed[f] = true
		}
		pkgs, _ := Discover(dir, files)
		for key, p := range pkgs {
			if p.Dir != key || !(key == "." || analyze.CleanRel(key)) {
				t.Fatalf("package keyed %q with Dir %q", key, p.Dir)
			}
			for i, tg := range p.Targets {
				if !listed[tg.Root] {
					t.Fatalf("target %s %s has a root that is not a listed file", tg.Kind, tg.Root)
				}
				if tg.Package != p || strings.Contains(tg.Name, "-") {
					t.Fatalf("bad target %+v", tg)
				}
				if _, ok := targetOrder[tg.Kind]; !ok {
					t.Fatalf("target of unknown kind %q", tg.Kind)
				}
				if i > 0 && targetOrder[p.Targets[i-1].Kind] > targetOrder[tg.Kind] {
					t.Fatalf("targets of %s out of order", key)
				}
			}
		}
	})
}
