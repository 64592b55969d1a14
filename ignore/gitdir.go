package ignore

import (
	"os"
	"path/filepath"
	"strings"
)

// gitTop finds the working tree that holds dir: the nearest ancestor (dir
// included) with a ".git" directory or file. It returns the top level and
// the git directory whose info/exclude applies, or "" and "" outside any
// repository.
//
// A ".git" file ("gitdir: …", as in linked worktrees and submodules) is
// followed; a worktree's git directory names the shared one in its
// "commondir" file, and info/exclude lives there.
func gitTop(dir string) (top, common string) {
	d := dir
	for {
		g := filepath.Join(d, ".git")
		if st, err := os.Stat(g); err == nil {
			if st.IsDir() {
				return d, g
			}
			if gd := readGitFile(d, g); gd != "" {
				return d, commonDir(gd)
			}
			return d, ""
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", ""
		}
		d = parent
	}
}

// readGitFile reads a ".git" file and returns the git directory it names.
func readGitFile(top, file string) string {
	b, err := os.ReadFile(file)
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(string(b), "\n")
	gd, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return ""
	}
	gd = strings.TrimSpace(gd)
	if gd == "" {
		return ""
	}
	if !filepath.IsAbs(gd) {
		gd = filepath.Join(top, gd)
	}
	return gd
}

// commonDir resolves a git directory's "commondir" file, if any.
func commonDir(gd string) string {
	b, err := os.ReadFile(filepath.Join(gd, "commondir"))
	if err != nil {
		return gd
	}
	c := strings.TrimSpace(string(b))
	if c == "" {
		return gd
	}
	if !filepath.IsAbs(c) {
		c = filepath.Join(gd, c)
	}
	return filepath.Clean(c)
}
