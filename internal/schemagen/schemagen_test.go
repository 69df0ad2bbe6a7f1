package schemagen

import (
	"strings"
	"testing"
)

func TestStitch(t *testing.T) {
	base := `{"$defs": {"glob": {"type": "string"}, "contract": {"description": "One kind ({kinds}).", "properties": {"id": {"type": "string"}}, "required": ["id"]}}}`
	kinds := []Kind{
		{Name: "a", Fragment: []byte(`{"$defs": {"a": {"type": "object"}}, "properties": {"a": {"$ref": "#/$defs/a"}}}`)},
		{Name: "b", Fragment: []byte(`{"$defs": {"bPart": {"type": "string"}, "b": {"type": "object"}}, "properties": {"b": {"$ref": "#/$defs/b"}, "c": {"$ref": "#/$defs/bPart"}}, "dependentRequired": {"c": ["b"]}}`)},
	}
	got, err := Stitch([]byte(base), kinds)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "$defs": {
    "glob": {
      "type": "string"
    },
    "a": {
      "type": "object"
    },
    "bPart": {
      "type": "string"
    },
    "b": {
      "type": "object"
    },
    "contract": {
      "description": "One kind (a, b; ` + "`c` goes with `b`" + `).",
      "properties": {
        "id": {
          "type": "string"
        },
        "a": {
          "$ref": "#/$defs/a"
        },
        "b": {
          "$ref": "#/$defs/b"
        },
        "c": {
          "$ref": "#/$defs/bPart"
        }
      },
      "required": [
        "id"
      ],
      "oneOf": [
        {
          "required": [
            "a"
          ]
        },
        {
          "required": [
            "b"
          ]
        }
      ],
      "dependentRequired": {
        "c": [
          "b"
        ]
      }
    }
  }
}
`
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestStitchNeedsTheKindsDef(t *testing.T) {
	base := `{"$defs": {"contract": {"description": "({kinds})", "properties": {}}}}`
	_, err := Stitch([]byte(base), []Kind{{Name: "a", Fragment: []byte(`{"$defs": {"x": {}}}`)}})
	if err == nil || !strings.Contains(err.Error(), "no $defs/a") {
		t.Errorf("err = %v, want one naming the missing $defs/a", err)
	}
}
