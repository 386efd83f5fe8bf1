//! The checked form of an Animator file ([`CheckedFile`]): its code, made
//! by lowering each command the moment the checker accepts it, in the one
//! pass that reads the file (`super::Animator`'s `check`), with the
//! strings it names numbered in a table of its own ([`FileStrings`]).
//! Lowering the file into the program ([`CheckedFile::into_module`]) only
//! interns those strings and renumbers them: nothing is read or checked
//! twice, and no list of the file's commands is held.

use super::lower::{Strings, animator_module};
use crate::builder::ProgramBuilder;
use crate::hash::FxHashMap;
use animkit_vm::engine::program::{ConstKind, Function, Module, StrId};

/// A file's strings, numbered from 0 in the order the file first names
/// them: the order in which lowering straight into the program would
/// intern them, so interning them in this order gives the same ids.
#[derive(Debug, Default)]
pub(super) struct FileStrings {
    ids: FxHashMap<String, StrId>,
}

impl FileStrings {
    fn id(&mut self, s: &str) -> StrId {
        if let Some(&id) = self.ids.get(s) {
            return id;
        }
        let id = self.ids.len() as StrId;
        self.ids.insert(s.to_owned(), id);
        id
    }
}

impl Strings for FileStrings {
    fn name(&mut self, s: &str) -> StrId {
        self.id(s)
    }
    fn text(&mut self, s: &str) -> StrId {
        self.id(s)
    }
}

/// An Animator file that read and checked without an error: its
/// functions (function 0 the file's commands, then one per macro
/// definition), their string constants and names numbered in `strings`.
#[derive(Debug)]
pub(super) struct CheckedFile {
    functions: Vec<Function>,
    strings: FileStrings,
}

impl CheckedFile {
    pub(super) fn new(functions: Vec<Function>, strings: FileStrings) -> CheckedFile {
        CheckedFile { functions, strings }
    }

    /// The module named `name`, its strings interned into `b` in the order
    /// the file named them, then its name (as lowering the commands one by
    /// one into `b` did: the same string ids, byte for byte the same
    /// bundle). Without `keep_pos` the debug positions are dropped.
    pub(super) fn into_module(self, name: &str, b: &mut ProgramBuilder, keep_pos: bool) -> Module {
        let CheckedFile { mut functions, strings } = self;
        let mut by_id = vec![""; strings.ids.len()];
        for (s, &id) in &strings.ids {
            by_id[id as usize] = s;
        }
        let ids: Vec<StrId> = by_id.iter().map(|s| b.intern(s)).collect();
        drop(by_id);
        drop(strings);
        let program_id = |local: StrId| ids.get(local as usize).copied().unwrap_or(local);
        for f in &mut functions {
            f.name = program_id(f.name);
            for (c, kind) in f.consts.iter_mut().zip(&f.kinds) {
                if *kind == ConstKind::Str {
                    *c = f64::from(program_id(*c as StrId));
                }
            }
            if !keep_pos {
                f.lines.clear();
            }
        }
        animator_module(b.intern(name), functions)
    }
}

#[cfg(test)]
mod tests {
    use crate::animator::Animator;
    use crate::animator::check::{Text, check_script};
    use crate::animator::lower::lower_script;
    use crate::builder::ProgramBuilder;
    use crate::front::{FrontEnd, LowerCx};
    use crate::source::{Options, Source};
    use animkit_vm::engine::program::ConstKind;

    const FIRST: &str = "text 0 0 shared\nmacro m\ntext 0 0 inner\nendmacro\n";
    const SECOND: &str = "text 0 0 own\ninvoke m\ntext 0 0 shared\nmacro push m\ntext 1 1 own\nendmacro\n";

    /// Two files lowered into one program by the reference path (the
    /// commands checked as a list, `check_script`, and lowered straight
    /// into the program, `lower_script`) and through the checked form,
    /// checked with or without positions and lowered with or without.
    #[test]
    fn the_checked_form_lowers_to_the_code_of_lowering_in_place() {
        for (check_pos, keep_pos) in [(true, true), (false, false), (true, false)] {
            let (mut direct, mut via) = (ProgramBuilder::new(), ProgramBuilder::new());
            for (name, src) in [("a", FIRST), ("b", SECOND)] {
                let (commands, errors) = animkit_grammar::animator::parse(src);
                assert!(errors.is_empty(), "{errors:?}");
                let script = check_script(commands, Text::of(src)).unwrap();
                let expected = lower_script(&script, name, &mut direct, keep_pos);
                let source = Source::new(format!("{name}.draw"), src);
                let checked =
                    Animator.check_with(&source, &Options { strip: !check_pos, ..Options::default() }).unwrap();
                let options = Options { strip: !keep_pos, ..Options::default() };
                let got = checked.ir.lower(LowerCx { builder: &mut via, source: &source, options: &options });
                assert_eq!(got, expected, "{name}, positions checked {check_pos}, kept {keep_pos}");
                assert_eq!(got.functions[0].lines.is_empty(), !keep_pos);
            }
            let (direct, via) = (direct.finish(), via.finish());
            assert_eq!(via.strings, ["main", "shared", "m", "inner", "a", "own", "b"]);
            assert_eq!(via.strings, direct.strings);
        }
    }

    /// The second file's strings are its own ids 1 (`own`), 2 (`m`) and 3
    /// (`shared`) before lowering, and the program's 5, 2 and 1 after.
    #[test]
    fn string_constants_and_function_names_are_renumbered() {
        let mut b = ProgramBuilder::new();
        let options = Options::default();
        for (name, src) in [("a", FIRST), ("b", SECOND)] {
            let source = Source::new(format!("{name}.draw"), src);
            let checked = Animator.check(&source).unwrap();
            let module = checked.ir.lower(LowerCx { builder: &mut b, source: &source, options: &options });
            if name == "b" {
                let strings = |f: &animkit_vm::engine::program::Function| -> Vec<f64> {
                    f.consts.iter().zip(&f.kinds).filter(|(_, k)| **k == ConstKind::Str).map(|(c, _)| *c).collect()
                };
                // `text own`, `invoke m`, `text shared`, the definition's
                // name `m`; the body: `text own`.
                assert_eq!(strings(&module.functions[0]), [5.0, 2.0, 1.0, 2.0]);
                assert_eq!(strings(&module.functions[1]), [5.0]);
                assert_eq!((module.name, module.functions[0].name, module.functions[1].name), (6, 0, 2));
            }
        }
    }
}
