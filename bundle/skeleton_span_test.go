package bundle

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxexpand/ctxexpand/analyze"
)

// TestSpanSkeleton renders skeletons of languages known only through SCIP
// from symbol spans alone.
func TestSpanSkeleton(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lang  analyze.Lang
		src   string
		syms  []Symbol
		want  string
		names []string
	}{
		{
			name: "typescript",
			lang: analyze.LangTypeScript,
			src: `import { User } from "../models/user";
import {
  Repo,
} from "../repo";

/** Account operations. */
export class UserService {
  constructor(private readonly repo: Repo) {}

  /** Finds a user. */
  findByEmail(email: string): User {
    const u = this.repo.get(email);
    return u;
  }
}

export interface Shape {
  area(): number;
}

export function helper(
  x: number,
): number {
  return x + 1;
}
`,
			syms: []Symbol{
				{Name: "user", Kind: "mod", Start: 1, End: 1, DeclLine: 1},
				{Name: "UserService", Kind: "struct", Start: 6, End: 15, DeclLine: 7},
				{Name: "constructor", Container: "UserService", Kind: "method", Start: 8, End: 8, DeclLine: 8},
				{Name: "findByEmail", Container: "UserService", Kind: "method", Start: 10, End: 14, DeclLine: 11},
				{Name: "Shape", Kind: "interface", Start: 17, End: 19, DeclLine: 17},
				{Name: "helper", Kind: "func", Start: 21, End: 25, DeclLine: 21},
			},
			want: `import { User } from "../models/user";
import {
  Repo,
} from "../repo";

/** Account operations. */
export class UserService {
  constructor(private readonly repo: Repo) {}
  /** Finds a user. */
  findByEmail(email: string): User {
    // … lines 12-13 elided
  }
}

export interface Shape {
  area(): number;
}

export function helper(
  x: number,
): number {
  // … line 24 elided
}
`,
			names: []string{"UserService", "Shape", "helper"},
		},
		{
			name: "python",
			lang: analyze.LangPython,
			src: `"""Accounts."""

from pysvc.models import User


class Error(Exception):
    """Raised on failure."""


@dataclass
class UserService:
    """Account operations."""

    def find_by_email(self, email: str) -> User:
        """Finds a user."""
        u = self._repo.get(email)
        return u
`,
			syms: []Symbol{
				{Name: "service", Kind: "mod", Start: 1, End: 1, DeclLine: 1},
				{Name: "Error", Kind: "struct", Start: 6, End: 7, DeclLine: 6},
				{Name: "UserService", Kind: "struct", Start: 10, End: 17, DeclLine: 11},
				{Name: "find_by_email", Container: "UserService", Kind: "method", Start: 14, End: 17, DeclLine: 14},
			},
			want: `from pysvc.models import User

class Error(Exception):
    """Raised on failure."""

@dataclass
class UserService:
    """Account operations."""
    def find_by_email(self, email: str) -> User:
        """Finds a user."""
        # … lines 16-17 elided
`,
			names: []string{"Error", "UserService"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, names := spanSkeleton(newSrc([]byte(tc.src), tc.lang), tc.syms)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("skeleton (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.names, names); diff != "" {
				t.Errorf("names (-want +got):\n%s", diff)
			}
		})
	}
}
