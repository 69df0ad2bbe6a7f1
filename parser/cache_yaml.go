package parser

import "go.yaml.in/yaml/v3"

// The frontmatter part of a cache entry: what decoding the frontmatter's
// YAML gave (its tree of nodes, its keys, its error), so that a file that
// did not change is not decoded again (the YAML library is the costliest
// part of parsing a skill or an agent after goldmark).
//
// It is a flag (1), the error (a flag, then its offset, message and
// TooLarge), the nodes of the tree under the mapping in preorder (each
// its kind, style, tag, value, anchor, alias, comments, line, column and
// number of children; an alias as the number of its target plus one, 0
// for none), whether the mapping is there, and the keys (each its name,
// its key's and value's nodes by number plus one, Merged, NotString and
// offsets). A tree whose alias or key points outside it is not stored (a
// flag 0: the next run decodes the YAML).

// encodeFrontmatter stores fm's decoded YAML.
func encodeFrontmatter(e *encoder, fm *Frontmatter) {
	ids := map[*yaml.Node]int{}
	var order []*yaml.Node
	var number func(n *yaml.Node)
	number = func(n *yaml.Node) {
		ids[n] = len(order)
		order = append(order, n)
		for _, c := range n.Content {
			number(c)
		}
	}
	if fm.Mapping != nil {
		number(fm.Mapping)
	}
	ref := func(n *yaml.Node) (int, bool) {
		if n == nil {
			return 0, true
		}
		id, ok := ids[n]
		return id + 1, ok
	}
	for _, n := range order {
		if _, ok := ref(n.Alias); !ok {
			e.int(0)
			return
		}
	}
	for _, k := range fm.Keys {
		_, ok1 := ref(k.Key)
		_, ok2 := ref(k.Value)
		if !ok1 || !ok2 {
			e.int(0)
			return
		}
	}
	e.int(1)
	if fm.Err == nil {
		e.int(0)
	} else {
		e.int(1)
		e.int(fm.Err.Offset)
		e.str(fm.Err.Msg, 0, 0)
		e.bool(fm.Err.TooLarge)
	}
	e.int(len(order))
	for _, n := range order {
		e.int(int(n.Kind))
		e.int(int(n.Style))
		e.str(n.Tag, 0, 0)
		e.str(n.Value, 0, 0) // as it is: a decode makes copies too
		e.str(n.Anchor, 0, 0)
		a, _ := ref(n.Alias)
		e.int(a)
		e.str(n.HeadComment, 0, 0)
		e.str(n.LineComment, 0, 0)
		e.str(n.FootComment, 0, 0)
		e.int(n.Line)
		e.int(n.Column)
		e.int(len(n.Content))
	}
	e.bool(fm.Mapping != nil)
	e.int(len(fm.Keys))
	for _, k := range fm.Keys {
		e.str(k.Name, 0, 0)
		kid, _ := ref(k.Key)
		vid, _ := ref(k.Value)
		e.int(kid)
		e.int(vid)
		e.bool(k.Merged)
		e.bool(k.NotString)
		e.int(k.Offset)
		e.int(k.ValueOffset)
		e.int(k.ValueEnd)
	}
}

// decodeFrontmatter reads what encodeFrontmatter stored after its flag
// into a copy of fm (its place in the file); r.bad says it could not.
func decodeFrontmatter(r *decoder, fm *Frontmatter) *Frontmatter {
	out := *fm
	out.Mapping, out.Keys, out.Err = nil, nil, nil
	if r.bool() {
		out.Err = &YAMLError{Offset: r.off(), Msg: r.str(), TooLarge: r.bool()}
	}
	n := r.count()
	nodes := make([]yaml.Node, n)
	children := make([]int, n)
	for i := range nodes {
		nd := &nodes[i]
		nd.Kind, nd.Style = yaml.Kind(r.uint()), yaml.Style(r.uint())
		nd.Tag, nd.Value, nd.Anchor = r.str(), r.str(), r.str()
		if a := r.uint(); a > n {
			r.bad = true
		} else if a > 0 {
			nd.Alias = &nodes[a-1]
		}
		nd.HeadComment, nd.LineComment, nd.FootComment = r.str(), r.str(), r.str()
		nd.Line, nd.Column = r.off(), r.off() // within the file's size

		children[i] = r.count()
		// what a decode guarantees, and the rules count on
		switch nd.Kind {
		case yaml.ScalarNode:
			r.bad = r.bad || children[i] != 0
		case yaml.MappingNode:
			r.bad = r.bad || children[i]%2 != 0
		case yaml.SequenceNode, yaml.DocumentNode:
		case yaml.AliasNode:
			r.bad = r.bad || nd.Alias == nil
		default:
			r.bad = true
		}
		if r.bad {
			return nil
		}
	}
	// the tree again, from the preorder and each node's number of children
	next := 0
	var build func() *yaml.Node
	build = func() *yaml.Node {
		if next >= n || r.bad {
			r.bad = true
			return nil
		}
		nd := &nodes[next]
		k := children[next]
		next++
		if k > 0 {
			nd.Content = make([]*yaml.Node, 0, k)
		}
		for range k {
			c := build()
			if c == nil {
				return nil
			}
			nd.Content = append(nd.Content, c)
		}
		return nd
	}
	var root *yaml.Node
	if n > 0 {
		root = build()
	}
	if r.bad || next != n {
		r.bad = true
		return nil
	}
	if r.bool() {
		if root == nil || root.Kind != yaml.MappingNode {
			r.bad = true
			return nil
		}
		out.Mapping = root
	}
	node := func() *yaml.Node {
		switch id := r.uint(); {
		case id == 0:
			return nil
		case id > n:
			r.bad = true
			return nil
		default:
			return &nodes[id-1]
		}
	}
	for k := r.count(); k > 0 && !r.bad; k-- {
		key := Key{Name: r.str(), Key: node(), Value: node(), Merged: r.bool(), NotString: r.bool()}
		key.Offset, key.ValueOffset, key.ValueEnd = r.off(), r.off(), r.off()
		out.Keys = append(out.Keys, key)
	}
	if r.bad {
		return nil
	}
	return &out
}
