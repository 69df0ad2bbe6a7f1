package config

import "go.yaml.in/yaml/v3"

// Contract is one entry of `contracts:`: an id and exactly one kind.
type Contract struct {
	ID          string `yaml:"id"`
	Description string `yaml:"description"`
	// Severity overrides the kind's rule severity for this contract.
	Severity string `yaml:"severity"`

	// Kind is the key of the contract's kind (`copy`, …) and Spec its
	// value, decoded and validated by the kind registered under that key
	// (RegisterContractKind); nil when the contract names no kind. Of a
	// contract that names several (an error), they are the first's.
	Kind string   `yaml:"-"`
	Spec KindSpec `yaml:"-"`
	// kinds are the keys of the kinds the contract sets, also the keys
	// that go with a kind (ContractKind.Also) it holds.
	kinds, also []string

	Pos Pos `yaml:"-"`
	// Builtin names the profile that shipped this contract ("" for config).
	Builtin string `yaml:"-"`
}

// UnmarshalYAML records the contract's position.
func (c *Contract) UnmarshalYAML(n *yaml.Node) error {
	c.Pos = Pos{n.Line, n.Column}
	type plain Contract
	return c.decodeKinds(n, n.Decode((*plain)(c)))
}

// FileSet picks files: those matching one of Files (globs; empty: every
// file) and none of Exclude, of one of Kinds (when set), that hold one of
// Holding (when set). It is written inline in a contract kind or a side.
type FileSet struct {
	Files   StringList `yaml:"files"`
	Exclude StringList `yaml:"exclude"`
	// Kinds are file kinds: built-in (skill, agent, command, …) or ones
	// declared under `kinds:`.
	Kinds StringList `yaml:"kinds"`
	// Holding keeps the files that hold one of these: a heading, written
	// with its #s (`## Step 0`), as a heading of the file; any other text
	// (a marker comment, a phrase) anywhere in it.
	Holding StringList `yaml:"holding"`
}

// Set reports whether the file set narrows anything beyond its globs.
func (f *FileSet) Set() bool {
	return len(f.Files) > 0 || len(f.Exclude) > 0 || len(f.Kinds) > 0 || len(f.Holding) > 0
}

// Selector picks files and a part of each: the language every contract
// kind reads (`mdcontract explain selectors`). File names one file (a
// path, or a glob that matches exactly one); the file set (files,
// exclude, kinds, holding) picks several; at most one part key says
// which part of each file; none is the whole file.
type Selector struct {
	File    string `yaml:"file"`
	FileSet `yaml:",inline"`
	// Section is a heading (`## Title`; the #s fix the level): the heading
	// line and everything up to the next heading of the same or a higher
	// level. Headings inside code fences do not count.
	Section string `yaml:"section"`
	// Fence is a heading whose first fenced block's content is selected.
	Fence string `yaml:"fence"`
	// Region is an anchored region's name: the lines between its begin and
	// end markers, wherever they stand (code fences included).
	Region string `yaml:"region"`
	// FenceWith picks fenced blocks whose first content line is this text.
	FenceWith string `yaml:"fence-with"`
	// Paragraph is a prefix: the paragraph whose first line starts with it.
	Paragraph string `yaml:"paragraph"`
	// Between is two marker lines: the lines strictly between them.
	Between []string `yaml:"between"`
	// Column is a table column, by its header: each cell below it, in
	// every table of the file (or of the section, region, … also given)
	// whose header row has it.
	Column string `yaml:"column"`
	// List picks each list item (its text after the marker), in the file
	// or in the section, region, … also given.
	List bool `yaml:"list"`
	// JSON is a dot path into a JSON file (a manifest): `keywords`,
	// `plugins.*.name` (`*` is every item of an array or member of an
	// object); it picks the strings there.
	JSON string `yaml:"json"`
	// Frontmatter is a frontmatter key: its value (a string, or each
	// string of a list).
	Frontmatter string `yaml:"frontmatter"`
	// Prefix lets Section and Fence headings match by prefix.
	Prefix bool `yaml:"prefix"`
}

// Part returns the selector's part keys alone (no file, no file set); nil
// when it picks whole files.
func (s *Selector) Part() *Selector {
	p := &Selector{Section: s.Section, Fence: s.Fence, FenceWith: s.FenceWith, Region: s.Region, Paragraph: s.Paragraph,
		Between: s.Between, Column: s.Column, List: s.List, JSON: s.JSON, Frontmatter: s.Frontmatter, Prefix: s.Prefix}
	if p.Section == "" && p.Fence == "" && p.FenceWith == "" && p.Region == "" && p.Paragraph == "" && len(p.Between) == 0 &&
		p.Column == "" && !p.List && p.JSON == "" && p.Frontmatter == "" {
		return nil
	}
	return p
}

// Picked returns the selector's file set, with File as its one glob when
// it names one file.
func (s *Selector) Picked() *FileSet {
	if s.File != "" {
		f := s.FileSet
		f.Files = StringList{s.File}
		return &f
	}
	return &s.FileSet
}
