package resident

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// headState describes where the git HEAD of the repository holding root
// points, from the files git keeps it in: HEAD itself, the branch it
// names, and packed-refs. Equal states mean the same commit; "" outside a
// git checkout. It reads two or three small files, so it runs at every
// query.
func headState(root string) string {
	gitDir, common := findGitDir(root)
	if gitDir == "" {
		return ""
	}
	head, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return "unreadable"
	}
	var b strings.Builder
	b.Write(head)
	if ref, ok := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: "); ok {
		if data, err := os.ReadFile(filepath.Join(common, filepath.FromSlash(ref))); err == nil {
			b.WriteString("|")
			b.Write(data)
		}
		if st, err := os.Stat(filepath.Join(common, "packed-refs")); err == nil {
			fmt.Fprintf(&b, "|packed %d %d", st.Size(), st.ModTime().UnixNano())
		}
	}
	return b.String()
}

// findGitDir returns the git directory of the checkout holding dir and
// the common directory its refs live in (they differ for linked
// worktrees), or "" outside any.
func findGitDir(dir string) (gitDir, common string) {
	for d := dir; ; {
		g := filepath.Join(d, ".git")
		if st, err := os.Stat(g); err == nil {
			if st.IsDir() {
				return g, g
			}
			data, err := os.ReadFile(g)
			if err != nil {
				return "", ""
			}
			line, _, _ := strings.Cut(string(data), "\n")
			gd, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
			if !ok {
				return "", ""
			}
			gd = strings.TrimSpace(gd)
			if !filepath.IsAbs(gd) {
				gd = filepath.Join(d, gd)
			}
			common = gd
			if c, err := os.ReadFile(filepath.Join(gd, "commondir")); err == nil {
				if cd := strings.TrimSpace(string(c)); cd != "" {
					if !filepath.IsAbs(cd) {
						cd = filepath.Join(gd, cd)
					}
					common = cd
				}
			}
			return gd, common
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", ""
		}
		d = parent
	}
}
