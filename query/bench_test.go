package query

import (
	"strings"
	"testing"
)

// adversarial are queries at the size limit built to find super-linear
// behaviour: long runs of brackets, dots, at signs, frames and quotes.
func adversarial() map[string]string {
	n := MaxQueryBytes
	return map[string]string{
		"close parens":  strings.Repeat(")", n),
		"open parens":   strings.Repeat("(", n),
		"url parens":    "@url:http://a/" + strings.Repeat(")", n-20),
		"dots":          strings.Repeat("a.", n/2),
		"at signs":      strings.Repeat("@a ", n/3),
		"colons":        strings.Repeat("a::", n/3),
		"frames":        strings.Repeat("main.f(0x1)\n\t/a/b.go:1 +0x1\n", n/30),
		"flat frames":   strings.Repeat("x(( /a.go:1 +0x1 ", n/18),
		"quotes":        strings.Repeat(`"abc" `, n/6),
		"backticks":     strings.Repeat("`a` ", n/4),
		"rust frames":   "stack backtrace: " + strings.Repeat(" 1: a::b at ./a.rs:1:1", n/24),
		"one long word": strings.Repeat("a", n),
		"panic lines":   strings.Repeat("panic: x\n", n/9),
	}
}

func BenchmarkAnalyzeAdversarial(b *testing.B) {
	for name, in := range adversarial() {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				Analyze(in)
			}
		})
	}
}

func BenchmarkAnalyzeTypical(b *testing.B) {
	for b.Loop() {
		Analyze("why does login return 500 when the token expired in UserService.find_by_email")
	}
}
