// Package githistory owns what version control says about the files of a
// repository: how many recent commits touched each one, and which past
// commits have messages like a query (similar.go). Files under active
// change are where the next change is most likely to land, so ranking uses
// this as a prior that breaks near-ties between equally relevant files
// (bug-localisation studies find the same). It runs git; a tree that is
// not a git checkout, or a missing git, simply has no history.
//
// History is that of the root: when the root is a folder inside a larger
// checkout, only commits that touched it are read, and only their files
// under it count. A commit that changed most of the root's files, or a
// great many files anywhere (an import, a reformat, a rename of
// everything), tells no file apart from the others: it weighs nothing,
// neither for the prior nor as a similar past change.
package githistory
