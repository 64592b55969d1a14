// Package githistory owns what version control says about the files of a
// repository: how many recent commits touched each one. Files under active
// change are where the next change is most likely to land, so ranking uses
// this as a prior that breaks near-ties between equally relevant files
// (bug-localisation studies find the same). It runs git; a tree that is
// not a git checkout, or a missing git, simply has no history.
package githistory
