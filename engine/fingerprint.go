package engine

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ctxexpand/ctxexpand/index"
)

// A Fingerprint is what the on-disk index knows a load of one tree by:
// the keys its snapshots are stored under and the content of every input
// file, as a load with the same options would work them out. Package
// engine/pack writes it into a pack and compares a pack's with the tree
// it seeds.
type Fingerprint struct {
	// Facts is the key of the facts snapshot; Lexical, of the lexical
	// index built on it. Both name the root's absolute path.
	Facts, Lexical index.Key
	// Inputs are the content hashes of the input files, by
	// repository-relative path.
	Inputs map[string]string

	root string
	opt  LoadOptions
	goFP string // golang.Fingerprint; empty without Go files
}

// FingerprintOf fingerprints root as a load with opt through opt.Index
// does (indexed.go), without loading anything. An opt without an index
// is an error.
func FingerprintOf(ctx context.Context, root string, opt LoadOptions) (Fingerprint, error) {
	if opt.Index == nil {
		return Fingerprint{}, errors.New("no index")
	}
	key, hashes, goFP, err := snapshotKey(ctx, opt.Index, root, opt)
	if err != nil {
		return Fingerprint{}, err
	}
	return Fingerprint{Facts: key, Lexical: lexicalKey(key), Inputs: hashes, root: root, opt: opt, goFP: goFP}, nil
}

// PortableSettings describes what besides the files changes the analysis
// of the fingerprinted root, with the paths that differ between machines
// left out, so that a pack built on one machine can be compared with
// another's tree.
func (f Fingerprint) PortableSettings() string { return portableSettings(f.root, f.opt, f.goFP) }

// lexicalKey is the key of the lexical index built on the facts
// snapshot of the given key.
func lexicalKey(facts index.Key) index.Key { return index.NewHasher("lexical").Key(facts).Sum() }

// portableSettings describes what besides the files changes the analysis
// of root, as the snapshot key does, with the root's own path, and the
// paths of the Go installation and module cache, left out: those differ
// between machines without changing the facts.
func portableSettings(root string, opt LoadOptions, goFP string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "skip-tests=%v network=%v backend=%q lsp=%q\nignore=%s\n", opt.SkipTests, opt.AllowNetwork, opt.backend(), opt.LSPCmd, opt.IndexKey)
	for _, line := range strings.Split(strings.TrimSpace(ignoreFilesAbove(root)), "\n") {
		// "<absolute path of an ignore file above the root> <hash>":
		// named relative to the root.
		if p, hash, ok := strings.Cut(line, " "); ok && filepath.IsAbs(p) {
			if rel, err := filepath.Rel(root, p); err == nil {
				line = filepath.ToSlash(rel) + " " + hash
			}
		}
		if line != "" {
			fmt.Fprintf(&b, "above %s\n", line)
		}
	}
	roots := []string{root}
	if real, err := filepath.EvalSymlinks(root); err == nil && real != root {
		roots = append(roots, real)
	}
	// SCIP indexes by content: the snapshot key knows them by size and
	// time, which another machine's copy does not share.
	for _, p := range opt.scipIndexes(root) {
		abs := p
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(root, p)
		}
		digest := "missing"
		if data, err := os.ReadFile(abs); err == nil {
			digest = fmt.Sprintf("%x", sha256.Sum256(data))
		}
		for _, r := range roots {
			p = strings.ReplaceAll(p, r, "<root>")
		}
		fmt.Fprintf(&b, "scip %s %s\n", filepath.ToSlash(p), digest)
	}
	for _, line := range strings.Split(strings.TrimSpace(goFP), "\n") {
		if strings.HasPrefix(line, "env GOROOT=") || strings.HasPrefix(line, "env GOMODCACHE=") {
			k, _, _ := strings.Cut(line, "=")
			line = k + "=<path>"
		}
		for _, r := range roots {
			line = strings.ReplaceAll(line, r, "<root>")
		}
		if line != "" {
			fmt.Fprintf(&b, "go %s\n", line)
		}
	}
	return b.String()
}
