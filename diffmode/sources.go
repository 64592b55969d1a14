package diffmode

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
)

// ErrNoBase is returned by a Sources that has no base for a file.
var ErrNoBase = errors.New("no base version available")

// SourcesFunc adapts a function to Sources.
type SourcesFunc func(ctx context.Context, f *File) ([]byte, error)

// Base implements Sources.
func (fn SourcesFunc) Base(ctx context.Context, f *File) ([]byte, error) { return fn(ctx, f) }

// FirstOf tries each Sources in order and returns the first base found.
func FirstOf(srcs ...Sources) Sources {
	return SourcesFunc(func(ctx context.Context, f *File) ([]byte, error) {
		var errs []error
		for _, s := range srcs {
			if s == nil {
				continue
			}
			b, err := s.Base(ctx, f)
			if err == nil {
				return b, nil
			}
			errs = append(errs, err)
		}
		if len(errs) == 0 {
			return nil, ErrNoBase
		}
		return nil, errors.Join(errs...)
	})
}

// ReverseSource rebuilds the base of a file by undoing its hunks on the
// new side's content, which read returns (by new-side path). It checks
// every context and added line against that content, so a working tree
// that does not match the diff gives an error, never a wrong base.
func ReverseSource(read func(ctx context.Context, path string) ([]byte, error)) Sources {
	return SourcesFunc(func(ctx context.Context, f *File) ([]byte, error) {
		if f.NewPath == "" {
			return nil, fmt.Errorf("%s was deleted: %w", f.OldPath, ErrNoBase)
		}
		data, err := read(ctx, f.NewPath)
		if err != nil {
			return nil, err
		}
		return ReverseApply(data, f)
	})
}

// ReverseApply returns the old side of f given the new side's content.
// Line endings of the result are LF.
func ReverseApply(newContent []byte, f *File) ([]byte, error) {
	var lines []string
	if len(newContent) > 0 {
		lines = strings.Split(string(newContent), "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
	}
	var out bytes.Buffer
	pos := 0 // index of the next new-side line
	emit := func(s string) {
		out.WriteString(s)
		out.WriteByte('\n')
	}
	for _, h := range f.Hunks {
		first := h.NewStart - 1 // index of the hunk's first new-side line
		if h.NewLines == 0 {
			first = h.NewStart
		}
		if first < pos || first > len(lines) {
			return nil, fmt.Errorf("%s: the hunk at diff line %d does not fit the file (%d lines)", f.NewPath, h.Line, len(lines))
		}
		for ; pos < first; pos++ {
			emit(lines[pos])
		}
		for _, l := range h.Lines {
			switch l.Op {
			case OpDel:
				emit(l.Text)
				continue
			}
			if pos >= len(lines) || strings.TrimRight(lines[pos], "\r") != l.Text {
				return nil, fmt.Errorf("%s:%d does not match the diff (diff line %d); the file has changed since the diff was made", f.NewPath, pos+1, h.Line)
			}
			if l.Op == OpContext {
				emit(lines[pos])
			}
			pos++
		}
	}
	for ; pos < len(lines); pos++ {
		emit(lines[pos])
	}
	return out.Bytes(), nil
}
