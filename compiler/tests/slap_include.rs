//! `include "file.slap"` and `include <polly>` in the checker, with files
//! from a map (`front_at`'s loader): the prelude, relative paths, a file
//! included twice, where included commands point, the depth and count
//! limits with their chains, and diagnostics naming the included file.
//! Reading real files is the UI cases' (`tests/ui/slap/include_*.slap`).

use animkit_compiler::diagnostic::{Diagnostic, render};
use animkit_compiler::slap::check::SlapLimits;
use animkit_compiler::slap::include::{MAX_INCLUDE_DEPTH, MAX_INCLUDES, POLLY};
use animkit_compiler::slap::ir::{Command, SceneIr};
use animkit_compiler::slap::{CheckedScene, front_at};
use std::collections::HashMap;

fn files(list: &[(&str, &str)]) -> HashMap<String, String> {
    list.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect()
}

fn check(src: &str, fs: &HashMap<String, String>) -> Result<CheckedScene, Vec<Diagnostic>> {
    front_at("scenes/main.slap", src, &SlapLimits::default(), fs)
}

fn scene(src: &str, fs: &HashMap<String, String>) -> SceneIr {
    match check(src, fs) {
        Ok(c) => c.ir,
        Err(d) => panic!("{}", render("scenes/main.slap", src, &d)),
    }
}

fn errors(src: &str, fs: &HashMap<String, String>) -> String {
    match check(src, fs) {
        Ok(_) => panic!("{src:?} checked"),
        Err(d) => render("scenes/main.slap", src, &d),
    }
}

fn first_args(ir: &SceneIr) -> Vec<f64> {
    match &ir.commands[0].command {
        Command::Actor { args, .. } | Command::Camera { args, .. } => args.iter().map(|a| a.value).collect(),
    }
}

#[test]
fn the_spec_example_compiles_with_the_prelude_alone() {
    let src = "include <polly>\ntime 0\ndefine red 1 0 0\nactor 1 color red\nactor 1 action idle\n\
               time +500\nactor 1 direction PI/4\nactor 1 action swagger\ntime +1000\nactor 1 action idle\n";
    let ir = scene(src, &HashMap::new());
    assert_eq!(ir.length, 1500);
    assert_eq!(ir.commands.len(), 5);
    let Command::Actor { args, .. } = &ir.commands[2].command else { panic!() };
    assert_eq!(args[0].value, std::f64::consts::PI / 4.0);
    // The prelude is the documented one: PI and the twelve actions.
    assert!(POLLY.contains("define PI 3.141592653589793\n") && POLLY.contains("define hop 11\n"));
}

#[test]
fn paths_are_relative_to_the_including_file() {
    let fs = files(&[
        ("scenes/lib/colours.slap", "include \"../more/x.slap\"\ndefine red 1 0 x\n"),
        ("scenes/more/x.slap", "define x 0.5\n"),
    ]);
    let ir = scene("include \"lib/colours.slap\"\nactor 1 color red\n", &fs);
    assert_eq!(first_args(&ir), [1.0, 0.0, 0.5]);
}

#[test]
fn a_file_included_twice_is_evaluated_twice_where_it_stands() {
    let fs = files(&[("scenes/step.slap", "define x x+1\ntime +10\nactor 1 position x 0\n")]);
    let src = "define x 0\ninclude \"step.slap\"\ninclude \"step.slap\"\nactor 2 size x\n";
    let ir = scene(src, &fs);
    assert_eq!(ir.length, 20);
    let frames: Vec<u32> = ir.commands.iter().map(|c| c.frame).collect();
    assert_eq!(frames, [10, 20, 20]);
    assert_eq!(first_args(&ir), [1.0, 0.0]);
    // An included command points at its include (debug positions are of
    // the scene's lines).
    assert_eq!(&src[ir.commands[0].span.range()], "include \"step.slap\"");
    assert_eq!(ir.commands[1].span.start, src.rfind("include").unwrap());
}

#[test]
fn an_error_in_an_included_file_names_it() {
    let fs = files(&[("scenes/bad.slap", "define ok 1\nactor 1 size okk\n")]);
    let out = errors("time 3\ninclude \"bad.slap\"\nactor 1 size 0\n", &fs);
    assert!(out.starts_with("error: undefined name `okk`\n --> scenes/bad.slap:2:14\n"), "{out}");
    assert!(out.contains("= note: in `scenes/bad.slap`, included from scenes/main.slap:2:1\n"), "{out}");
    // Then the scene's own error, after it in source order.
    assert!(out.contains("error: size 0 is not above 0\n --> scenes/main.slap:3:14\n"), "{out}");
}

#[test]
fn a_cycle_is_refused_with_its_chain() {
    let fs = files(&[("scenes/a.slap", "include \"b.slap\"\n"), ("scenes/b.slap", "include \"a.slap\"\n")]);
    let out = errors("include \"a.slap\"\n", &fs);
    assert!(out.starts_with("error: `scenes/a.slap` includes itself\n --> scenes/b.slap:1:9\n"), "{out}");
    assert!(out.contains("= note: the chain is scenes/main.slap -> scenes/a.slap -> scenes/b.slap -> scenes/a.slap\n"));
    // The scene including itself.
    let fs = files(&[("scenes/main.slap", "include \"main.slap\"\n")]);
    let out = errors("include \"main.slap\"\n", &fs);
    assert!(out.contains("error: `scenes/main.slap` includes itself\n"), "{out}");
}

#[test]
fn nesting_deeper_than_the_limit_is_refused() {
    let n = MAX_INCLUDE_DEPTH + 1;
    let mut list: Vec<(String, String)> =
        (0..n).map(|i| (format!("scenes/f{i}.slap"), format!("include \"f{}.slap\"\n", i + 1))).collect();
    list.push((format!("scenes/f{n}.slap"), "define deep 1\n".into()));
    let fs: HashMap<String, String> = list.iter().cloned().collect();
    let out = errors("include \"f0.slap\"\n", &fs);
    assert!(out.starts_with(&format!("error: includes nested more than {MAX_INCLUDE_DEPTH} deep\n")), "{out}");
    // The 17th include, in f15.
    assert!(out.contains(&format!(" --> scenes/f{}.slap:1:9\n", MAX_INCLUDE_DEPTH - 1)), "{out}");
    // One level less is fine.
    let ok = scene("include \"f2.slap\"\nactor deep size 1\n", &fs);
    assert_eq!(ok.commands.len(), 1);
}

#[test]
fn inclusions_are_counted_so_a_diamond_cannot_explode() {
    // Each file includes the next twice: 2 + 4 + ... inclusions.
    let levels = 13;
    let mut fs = HashMap::new();
    for i in 0..levels {
        fs.insert(format!("scenes/d{i}.slap"), format!("include \"d{0}.slap\"\ninclude \"d{0}.slap\"\n", i + 1));
    }
    fs.insert(format!("scenes/d{levels}.slap"), "define x 1\n".into());
    let out = errors("include \"d0.slap\"\n", &fs);
    assert_eq!(
        out.matches(&format!(
            "error: too many includes: a scene may include files at most {MAX_INCLUDES} times in all"
        ))
        .count(),
        1,
        "{out}"
    );
}

#[test]
fn the_text_only_entry_points_refuse_an_include_they_cannot_read() {
    let (file, _) = animkit_grammar::slap::parse("include <polly>\n");
    let e = animkit_compiler::slap::check::check(&file).unwrap_err();
    assert_eq!(e[0].message, "`include` is not available here");
}

#[test]
fn a_timeline_error_in_an_included_file_names_that_file() {
    let fs = files(&[("scenes/cam.slap", "define x 1\ncamera follow 5\ncamera lookat 0 2 8\n")]);
    let e = errors("actor 1 size 1\ninclude \"cam.slap\"\n", &fs);
    assert!(e.starts_with("error: actor 5 is not in the scene at frame 0\n --> scenes/cam.slap:2:15\n"), "{e}");
    assert!(e.contains("= note: in `scenes/cam.slap`, included from scenes/main.slap:2:1\n"), "{e}");
    // The look-at after a follow is not checked; one at the default camera's place is.
    let fs = files(&[("scenes/cam.slap", "camera lookat 0 2 8\n")]);
    let e = errors("include \"cam.slap\"\n", &fs);
    assert!(
        e.starts_with("error: `camera lookat` at the point where the camera stands\n --> scenes/cam.slap:1:15\n"),
        "{e}"
    );
}
