package lsp

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestReadMessage(t *testing.T) {
	in := "Content-Length: 2\r\n\r\n{}" +
		"content-length:  7\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{\"a\":1}" +
		"\r\nContent-Length: 4\n\nnull"
	br := bufio.NewReader(strings.NewReader(in))
	for _, want := range []string{"{}", `{"a":1}`, "null"} {
		got, err := readMessage(br)
		if err != nil || string(got) != want {
			t.Fatalf("readMessage = %q, %v; want %q", got, err, want)
		}
	}
	if _, err := readMessage(br); !errors.Is(err, io.EOF) {
		t.Errorf("at the end: %v, want EOF", err)
	}
}

func TestReadMessageErrors(t *testing.T) {
	for _, in := range []string{
		"Content-Type: x\r\n\r\n{}",
		"Content-Length: -1\r\n\r\n",
		"Content-Length: x\r\n\r\n",
		"no colon\r\n\r\n",
		"Content-Length: 999999999999\r\n\r\n",
	} {
		_, err := readMessage(bufio.NewReader(strings.NewReader(in)))
		if !errors.Is(err, errHeader) {
			t.Errorf("%q: %v, want a header error", in, err)
		}
	}
	for _, in := range []string{"Content-Length: 10\r\n\r\n{}", "Content-Length: 10\r\n"} {
		_, err := readMessage(bufio.NewReader(strings.NewReader(in)))
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("%q: %v, want unexpected EOF", in, err)
		}
	}
}

func TestWriter(t *testing.T) {
	var b bytes.Buffer
	w := &writer{w: &b}
	if err := w.write(map[string]string{"é": "🚨"}); err != nil {
		t.Fatal(err)
	}
	want := "Content-Length: 13\r\n\r\n{\"é\":\"🚨\"}"
	if b.String() != want {
		t.Errorf("wrote %q, want %q", b.String(), want)
	}
}
