package parser

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseJSONPositions(t *testing.T) {
	src := "{\n  \"a\": [\"x\", \"y\\u0041\"],\n  \"b\": {\"c\": true, \"c\": \"last\"},\n  \"n\": 1.5e3, \"z\": null\n}\n"
	v, err := ParseJSON([]byte(src), 0)
	if err != nil {
		t.Fatal(err)
	}
	at := func(jv *JSONValue) string { return src[jv.Start:jv.End] }
	a := v.Get("a")
	if a == nil || a.Kind != JSONArray || len(a.Items) != 2 {
		t.Fatalf("a = %+v", a)
	}
	if got := at(a.Items[1]); got != `"y\u0041"` || a.Items[1].Str != "yA" {
		t.Errorf("a[1] spans %q, value %q", got, a.Items[1].Str)
	}
	if got := at(a); got != `["x", "y\u0041"]` {
		t.Errorf("a spans %q", got)
	}
	if c := v.Get("b").Get("c"); c == nil || c.Str != "last" {
		t.Errorf("duplicate key: got %+v, want the last", c)
	}
	if n := v.Get("n"); n.Kind != JSONNumber || at(n) != "1.5e3" {
		t.Errorf("n spans %q", at(n))
	}
	if m := v.Members[0]; src[m.KeyStart:m.KeyEnd] != `"a"` {
		t.Errorf("key spans %q", src[m.KeyStart:m.KeyEnd])
	}
	if v.Get("missing") != nil || a.Get("x") != nil || (*JSONValue)(nil).Get("x") != nil {
		t.Error("Get of a missing key or a non-object is not nil")
	}
	if at(v) != strings.TrimSpace(src) {
		t.Errorf("root spans %q", at(v))
	}
}

func TestParseJSONRejects(t *testing.T) {
	for _, src := range []string{
		``, `{`, `{"a" 1}`, `{"a":1,}`, `[1 2]`, `{"a":1} x`, `{"a":1}{}`, `{'a':1}`, `[` + strings.Repeat("[", 600) + strings.Repeat("]", 601),
	} {
		v, err := ParseJSON([]byte(src), 0)
		if err == nil {
			t.Errorf("%.40q parsed: %+v", src, v)
		}
		var je *JSONError
		if !errors.As(err, &je) || je.Offset < 0 || je.Offset > len(src) {
			t.Errorf("%.40q: error %v is not a placed *JSONError", src, err)
		}
	}
}

// A parse error says where the fault is, in the document.
func TestParseJSONErrorOffset(t *testing.T) {
	for src, want := range map[string]int{`{"a":1,}`: 7, `{"a":1} x`: 8, `{"a":`: 5} {
		_, err := ParseJSON([]byte(src), 3)
		var je *JSONError
		if !errors.As(err, &je) || je.Offset != 3+want {
			t.Errorf("%q: %v at %+v, want offset %d", src, err, je, 3+want)
		}
	}
	d := Parse("hooks/hooks.json", KindManifest, []byte(`{"hooks": [}`))
	if d.JSON != nil || d.JSONErr == nil || d.JSONErr.Offset != 11 {
		t.Errorf("JSONErr = %+v", d.JSONErr)
	}
}

func TestParseManifestJSON(t *testing.T) {
	src := "\xef\xbb\xbf{\"name\": \"p\"}"
	d := Parse(".claude-plugin/plugin.json", KindManifest, []byte(src))
	n := d.JSON.Get("name")
	if n == nil || src[n.Start:n.End] != `"p"` {
		t.Fatalf("name after a BOM: %+v", n)
	}
	if Parse(".claude-plugin/plugin.json", KindManifest, []byte(`{"name":`)).JSON != nil {
		t.Error("malformed manifest has JSON")
	}
	if Parse("a.md", KindOther, []byte(`{"name": "p"}`)).JSON != nil {
		t.Error("markdown has JSON")
	}
}

func FuzzParseJSON(f *testing.F) {
	f.Add(`{"commands": ["./a.md", "./b"], "hooks": {"x": [1, null]}}`)
	f.Add(`[1, "two", {"3": false}]`)
	f.Add(`{"a": 1, "b": {"c": 2, "c": 3}, "\u0061": [4], "a": 5}`)
	f.Fuzz(func(t *testing.T, src string) {
		v, err := ParseJSON([]byte(src), 0)
		if err != nil {
			return
		}
		var walk func(*JSONValue)
		walk = func(v *JSONValue) {
			if v.Start < 0 || v.End > len(src) || v.Start >= v.End {
				t.Fatalf("value spans [%d,%d) of %d bytes", v.Start, v.End, len(src))
			}
			if v.Kind == JSONString && src[v.Start] != '"' {
				t.Fatalf("string at %d starts with %q", v.Start, src[v.Start])
			}
			for _, m := range v.Members {
				if src[m.KeyStart] != '"' {
					t.Fatalf("key at %d starts with %q", m.KeyStart, src[m.KeyStart])
				}
				// the member a key's lookup finds is the one not dropped
				if !m.Dropped && !strings.ContainsRune(m.Key, utf8.RuneError) && v.Get(m.Key) != m.Value {
					t.Fatalf("key %q at %d: Get finds another value than the one kept", m.Key, m.KeyStart)
				}
				walk(m.Value)
			}
			for _, it := range v.Items {
				walk(it)
			}
		}
		walk(v)
	})
}

// A key given twice: each repeat names the member before it, and every
// member but the last of a key is dropped (JSON.parse keeps the last),
// in a small object and in one past the size where a map finds them.
func TestParseJSONRepeatedKeys(t *testing.T) {
	var big strings.Builder
	big.WriteString(`{`)
	for i := range 20 {
		fmt.Fprintf(&big, `"k%d": %d, `, i, i)
	}
	big.WriteString(`"k3": "again", "k\u0033": "last", "\ud800": 1, "\ud801": 2, "\ud800": 3}`)
	for _, c := range []struct {
		src  string
		want string // per member: key, and "<n" for Prev n, "x" for Dropped
	}{
		{`{"a": 1, "b": 2, "a": 3}`, "a x|b|a <1"},
		{`{"a": 1, "\u0061": 2, "a": 3}`, "a x|a <1 x|a <2"},
		{`{"a": {"b": 1, "b": 2}, "c": 1}`, "a|c"},
		{big.String(), ""},
	} {
		v, err := ParseJSON([]byte(c.src), 0)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range v.Members {
			s := m.Key
			if m.Prev > 0 {
				s += fmt.Sprintf(" <%d", m.Prev)
			}
			if m.Dropped {
				s += " x"
			}
			got = append(got, s)
		}
		if c.want != "" {
			if g := strings.Join(got, "|"); g != c.want {
				t.Errorf("%s: members %q, want %q", c.src, g, c.want)
			}
			continue
		}
		// the big one: k3 thrice, each repeat after the one before; the
		// lone surrogates, all U+FFFD to Go, are two keys, as to JSON.parse
		want := map[int]string{3: "k3 x", 20: "k3 <4 x", 21: "k3 <21", 22: "\ufffd x", 23: "\ufffd", 24: "\ufffd <23"}
		for i, w := range want {
			if got[i] != w {
				t.Errorf("big object: member %d is %q, want %q", i, got[i], w)
			}
		}
		if v.Get("k3").Str != "last" {
			t.Errorf("big object: k3 is %q, want the last", v.Get("k3").Str)
		}
	}
}
