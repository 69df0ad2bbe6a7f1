package parser

import "strings"

// Skills kept in category folders. kinds.yaml takes a skill by path only
// at skills/<name>/SKILL.md, the layout hosts load; catalogs keep their
// skills a folder deeper (skills/<category>/<name>/SKILL.md,
// skills/.curated/<name>/SKILL.md) and install each one on its own. A
// skill is a folder holding a SKILL.md (the Agent Skills specification,
// https://agentskills.io/specification, read 2026-12-06), so such a
// SKILL.md is a skill too, unless it lies inside another skill's folder,
// where it is that skill's file (a sub-guide the skill points to). Which
// it is depends on the other files, so the index decides it (KindOf).

// KindOf returns the kind of the file at repo-relative path rel in this
// repo: KindOf's by its path and the plugin roots, and a SKILL.md below a
// skills folder that lies in no other skill's folder is a skill.
func (idx *Index) KindOf(rel string) Kind {
	k := KindOf(rel, idx.PluginRoots())
	if k == KindSkillResource && idx.categorySkill(rel) {
		return KindSkill
	}
	return k
}

// categorySkill reports whether rel is a SKILL.md below a skills folder,
// two folders down or more, with no SKILL.md in a folder between.
func (idx *Index) categorySkill(rel string) bool {
	if !strings.HasSuffix(rel, "/SKILL.md") {
		return false
	}
	top := skillsFolder(rel)
	if top < 0 {
		return false
	}
	dir := rel[:len(rel)-len("/SKILL.md")]
	for {
		i := strings.LastIndexByte(dir, '/')
		if i <= top {
			return true
		}
		dir = dir[:i]
		if idx.Doc(dir+"/SKILL.md") != nil {
			return false
		}
	}
}

// skillsFolder returns the index in rel of the `/` that ends its first
// folder named skills, or -1.
func skillsFolder(rel string) int {
	for at := 0; at < len(rel); {
		i := strings.IndexByte(rel[at:], '/')
		if i < 0 {
			return -1
		}
		if rel[at:at+i] == "skills" {
			return at + i
		}
		at += i + 1
	}
	return -1
}
