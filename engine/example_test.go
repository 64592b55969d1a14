package engine_test

import (
	"context"
	"fmt"
	"log"

	"github.com/ctxexpand/ctxexpand/engine"
)

// Open a repository once and ask it which files a fix touches. Without a
// budget the query stops at the ranking: no bundle is assembled.
func ExampleOpen() {
	ctx := context.Background()
	// NoHistory keeps version control out of the ranking, so that the
	// answer is the same in any checkout.
	s, err := engine.Open(ctx, "../testdata/gosvc", engine.LoadOptions{NoHistory: true})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	out, err := s.Query(ctx, engine.Request{Query: "fix UserService.find_by_email", MaxFiles: 5})
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range out.Result.Files {
		fmt.Println(f.Path)
	}
	// Output:
	// internal/service/user.go
	// internal/models/user.go
	// internal/repository/repository.go
	// internal/service/errors.go
	// internal/repository/memory.go
}
