module github.com/ctxexpand/ctxexpand

go 1.26.0

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/google/go-cmp v0.7.0
	github.com/sourcegraph/conc v0.3.0
	github.com/tree-sitter/go-tree-sitter v0.25.0
	github.com/tree-sitter/tree-sitter-rust v0.24.0
	golang.org/x/tools v0.52.0
)

require (
	github.com/dlclark/regexp2/v2 v2.5.1 // indirect
	github.com/dominikbraun/graph v0.23.0 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/mattn/go-pointer v0.0.1 // indirect
	github.com/spf13/cobra v1.10.2 // indirect
	github.com/spf13/pflag v1.0.9 // indirect
	github.com/tiktoken-go/tokenizer v0.10.0 // indirect
	github.com/tree-sitter/tree-sitter-go v0.25.0 // indirect
	go.uber.org/atomic v1.7.0 // indirect
	go.uber.org/multierr v1.9.0 // indirect
)
