//! Where each Aseprite tag's frames really are in the sheet.
//!
//! Aseprite writes a tag's `from`/`to` counted from the first frame of the
//! file the tag belongs to, before `--ignore-empty` drops empty frames; in a
//! sheet of several files (a batch export), or with frames dropped, those
//! numbers are not the sheet's. The frames' names often say better: the
//! default sheet names are `{title}[ ({layer})][ #{tag}] {frame}.{extension}`
//! (`{frame}` counted in the frame's own file), and a `--filename-format`
//! with `{tag}` names each frame's tag. [`place`] follows the names where
//! they say where a tag is, and refuses a range that cannot be right; the
//! rules, with an example of each, are in `docs/aseprite.md`.

use std::collections::HashMap;

/// The most frames all converted states may show together (the sum over
/// the tags of each one's frames times its repeats): tags that overlap
/// each show their own copy of the frames they share, so 10 000 tags over
/// the same 10 000 frames would make 10^8. Checked before anything is
/// built; the converted text stays under about 20 bytes a frame.
pub const MAX_TOTAL_FRAMES: u64 = 1_000_000;

/// Aseprite's behaviour behind every moved or refused range, in one
/// sentence.
pub const BATCH: &str = "Aseprite's batch export counts each file's tags from that file's first frame";

/// Why a tag's frames are elsewhere in the sheet than its range says
/// within one file: the range counts the frames of the file itself.
const IN_FILE: &str = "Aseprite counts a tag's frames as in its file, before `--split-tags` lists them tag by tag or \
                       `--ignore-empty` drops the empty ones";

/// The longest frame name searched for tag names (longer names are not
/// taken to carry a tag).
const MAX_NAME: usize = 1024;

/// A tag as the export writes it.
pub struct Written<'a> {
    /// `name`.
    pub name: &'a str,
    /// `from`.
    pub from: usize,
    /// `to`.
    pub to: usize,
}

/// Where one tag's frames are: inclusive runs of sheet frames, in order,
/// and the warning when they are not the written range.
pub struct Placed {
    /// The runs `(first, last)`.
    pub runs: Vec<(usize, usize)>,
    /// Why the frames are not `from..=to`, when they are not.
    pub warning: Option<String>,
}

impl Placed {
    /// How many frames the runs hold.
    pub fn len(&self) -> usize {
        self.runs.iter().map(|&(a, b)| b - a + 1).sum()
    }

    /// The frames, in order.
    pub fn frames(&self) -> impl Iterator<Item = usize> + '_ {
        self.runs.iter().flat_map(|&(a, b)| a..=b)
    }
}

/// A frame's name in Aseprite's default shape for sheets.
struct Name<'a> {
    title: &'a str,
    layer: Option<&'a str>,
    tag: Option<&'a str>,
    number: usize,
}

/// `{title}[ ({layer})][ #{tag}][ {frame}][.{extension}]`, or `None`.
fn parse(name: &str) -> Option<Name<'_>> {
    let stem = match name.rfind('.') {
        Some(k) if k > 0 && k + 1 < name.len() && name[k + 1..].bytes().all(|c| c.is_ascii_alphanumeric()) => {
            &name[..k]
        }
        _ => name,
    };
    let (rest, number) = match stem.rfind(' ') {
        Some(k) if k + 1 < stem.len() && stem[k + 1..].bytes().all(|c| c.is_ascii_digit()) => {
            (&stem[..k], stem[k + 1..].parse().ok()?)
        }
        _ => (stem, 0),
    };
    let (rest, tag) = match rest.rfind(" #") {
        Some(k) => (&rest[..k], Some(&rest[k + 2..])),
        None => (rest, None),
    };
    let (title, layer) = match rest.rfind(" (") {
        Some(k) if rest.ends_with(')') => (&rest[..k], Some(&rest[k + 2..rest.len() - 1])),
        _ => (rest, None),
    };
    if title.is_empty() {
        return None;
    }
    Some(Name { title, layer, tag, number })
}

/// Places every tag (see the module's documentation); `Err` is the
/// message of an error (without the path) naming the tag, its range and
/// Aseprite's behaviour.
pub fn place(names: &[String], tags: &[Written<'_>]) -> Result<Vec<Placed>, String> {
    let frames = names.len();
    let parsed: Option<Vec<Name<'_>>> = names.iter().map(|n| parse(n)).collect();
    if let Some(parsed) = parsed.filter(|p| default_shape(names, p)) {
        return by_default_names(&parsed, tags);
    }
    let carried = carried(names, tags);
    let counts = counts(tags);
    let repeated = repeated(names);
    let mut out = Vec::with_capacity(tags.len());
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for tag in tags {
        let k = seen.entry(tag.name).or_insert(0);
        let ordinal = *k;
        *k += 1;
        let count = counts[tag.name];
        let at = carried.get(tag.name).map(Vec::as_slice).unwrap_or_default();
        let runs = file_runs(at);
        let written = tag.from <= tag.to && tag.to < frames;
        let ends_carry = || [tag.from, tag.to].iter().all(|f| at.binary_search_by_key(f, |c| c.0).is_ok());
        if !runs.is_empty() && runs.len() == count {
            let (a, b) = runs[ordinal];
            // As long as written: shifted with its file; else frames were
            // dropped or listed again within the file.
            let why = if tag.from <= tag.to && b - a == tag.to - tag.from { BATCH } else { IN_FILE };
            out.push(moved(tag, vec![(a, b)], why));
        } else if runs.is_empty() || (count == 1 && written && ends_carry()) {
            // No name carries the tag, or it is one tag whose frames are
            // cut by others' (a nested tag): as written.
            if !written {
                return Err(beyond(tag, frames));
            }
            if let (true, Some(name)) = (runs.is_empty(), repeated) {
                return Err(format!(
                    "tag `{}` spans frames {} to {}, but no frame's name carries it and the names repeat (`{}`, as \
                     when several files or split tags share one sheet): {BATCH}; export with `--filename-format \
                     '{{title}} #{{tag}} {{frame}}.{{extension}}'`, or one file per sheet",
                    tag.name,
                    tag.from,
                    tag.to,
                    excerpt(name)
                ));
            }
            out.push(Placed { runs: vec![(tag.from, tag.to)], warning: None });
        } else {
            return Err(format!(
                "tag `{}` spans frames {} to {}, but the frames named after it are {}: {BATCH}, and the names do not \
                 say which of them this tag counts",
                tag.name,
                tag.from,
                tag.to,
                show(&runs)
            ));
        }
    }
    Ok(out)
}

/// Whether the names are Aseprite's default ones: each ends in a source
/// file's extension (`.aseprite`, `.ase`), or some file shows two numbered
/// frames, or some name carries ` #{tag}` (otherwise a custom
/// `--filename-format` could read as one-frame files).
fn default_shape(names: &[String], parsed: &[Name<'_>]) -> bool {
    let source = |n: &String| {
        let n = n.to_ascii_lowercase();
        n.ends_with(".aseprite") || n.ends_with(".ase")
    };
    if parsed.len() == 1 || names.iter().all(source) || parsed.iter().any(|n| n.tag.is_some()) {
        return true;
    }
    let mut firsts: HashMap<&str, usize> = HashMap::new();
    parsed.iter().any(|n| match firsts.insert(n.title, n.number) {
        Some(m) => m != n.number,
        None => false,
    })
}

/// A name given to two frames, when every frame has a name (empty names
/// say nothing).
fn repeated(names: &[String]) -> Option<&str> {
    if names.iter().any(String::is_empty) {
        return None;
    }
    let mut seen = std::collections::HashSet::new();
    names.iter().find(|n| !seen.insert(n.as_str())).map(String::as_str)
}

/// At most the first 40 characters of a name, `...` after a cut one.
fn excerpt(name: &str) -> String {
    match name.char_indices().nth(40) {
        Some((k, _)) => format!("{}...", &name[..k]),
        None => name.to_string(),
    }
}

fn beyond(tag: &Written<'_>, frames: usize) -> String {
    format!(
        "tag `{}` spans frames {} to {}, but the export has frames 0 to {} ({BATCH})",
        tag.name,
        tag.from,
        tag.to,
        frames.saturating_sub(1)
    )
}

/// The placement at `runs`, with a warning when they are not the written
/// range.
fn moved(tag: &Written<'_>, runs: Vec<(usize, usize)>, why: &str) -> Placed {
    let warning = (runs != [(tag.from, tag.to)]).then(|| {
        format!(
            "tag `{}` spans frames {} to {} in the export, but its frames' names put it at frames {}: following the \
             names ({why})",
            tag.name,
            tag.from,
            tag.to,
            show(&runs)
        )
    });
    Placed { runs, warning }
}

/// `2 to 5, 7`.
fn show(runs: &[(usize, usize)]) -> String {
    let shown: Vec<String> =
        runs.iter().take(8).map(|&(a, b)| if a == b { a.to_string() } else { format!("{a} to {b}") }).collect();
    let more = if runs.len() > 8 { format!(" and {} more runs", runs.len() - 8) } else { String::new() };
    format!("{}{more}", shown.join(", "))
}

/// How many tags bear each name.
fn counts<'a>(tags: &[Written<'a>]) -> HashMap<&'a str, usize> {
    let mut counts = HashMap::new();
    for t in tags {
        *counts.entry(t.name).or_insert(0) += 1;
    }
    counts
}

/// The carrying frames as runs of consecutive frames with the same text
/// before the tag's name (one run per file when that text is the title).
fn file_runs(at: &[(usize, &str)]) -> Vec<(usize, usize)> {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for (k, &(i, before)) in at.iter().enumerate() {
        match runs.last_mut() {
            Some((_, b)) if *b + 1 == i && at[k - 1].1 == before => *b = i,
            _ => runs.push((i, i)),
        }
    }
    runs
}

/// Consecutive indices as runs.
fn runs_of(indices: &[usize]) -> Vec<(usize, usize)> {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for &i in indices {
        match runs.last_mut() {
            Some((_, b)) if *b + 1 == i => *b = i,
            _ => runs.push((i, i)),
        }
    }
    runs
}

/// For each tag name, the frames (in order) whose name holds it as a
/// whole part: bounded on each side by the name's ends or by a character
/// that is not an ASCII letter or digit (`hero_Walk:0`, `hero/Walk/0`);
/// with each, what its name holds before the part (`hero_`: the file, when
/// the format starts with `{title}`).
fn carried<'a, 'n>(names: &'n [String], tags: &[Written<'a>]) -> HashMap<&'a str, Vec<(usize, &'n str)>> {
    let wanted: HashMap<&str, ()> = tags.iter().map(|t| (t.name, ())).collect();
    let mut out: HashMap<&'a str, Vec<(usize, &'n str)>> = HashMap::new();
    for (i, name) in names.iter().enumerate() {
        if name.len() > MAX_NAME {
            continue;
        }
        let b = name.as_bytes();
        let cut =
            |k: usize| k == 0 || k == b.len() || !b[k - 1].is_ascii_alphanumeric() || !b[k].is_ascii_alphanumeric();
        // Each part of the name between two cuts, at most 4 separators wide.
        let cuts: Vec<usize> = (0..=b.len()).filter(|&k| cut(k) && name.is_char_boundary(k)).collect();
        for (x, &s) in cuts.iter().enumerate() {
            for &e in cuts.iter().skip(x + 1).take(8) {
                let part = &name[s..e];
                if let Some((&key, _)) = wanted.get_key_value(part) {
                    let v = out.entry(key).or_default();
                    if v.last().map(|c| c.0) != Some(i) {
                        v.push((i, &name[..s]));
                    }
                }
            }
        }
    }
    out
}

/// Placement by default names: each tag's file is found from its name
/// (` #{tag}` in the frames' names, a file titled like the tag, or the
/// only file), then its frames by their numbers in that file.
fn by_default_names(parsed: &[Name<'_>], tags: &[Written<'_>]) -> Result<Vec<Placed>, String> {
    let mut titles: Vec<&str> = Vec::new();
    let mut first_of: HashMap<&str, usize> = HashMap::new();
    // For each tag part, the titles that carry it, in order.
    let mut tag_titles: HashMap<&str, Vec<&str>> = HashMap::new();
    for (i, n) in parsed.iter().enumerate() {
        if !first_of.contains_key(n.title) {
            first_of.insert(n.title, i);
            titles.push(n.title);
        }
        if let Some(t) = n.tag {
            let v = tag_titles.entry(t).or_default();
            if !v.contains(&n.title) {
                v.push(n.title);
            }
        }
    }
    // The titles by their lower-case spelling.
    let mut lower: HashMap<String, Vec<&str>> = HashMap::new();
    for t in &titles {
        lower.entry(t.to_ascii_lowercase()).or_default().push(t);
    }
    // Frames of each (title, number), in order.
    let mut at: HashMap<(&str, usize), Vec<usize>> = HashMap::new();
    // The highest frame number of each title.
    let mut top: HashMap<&str, usize> = HashMap::new();
    for (i, n) in parsed.iter().enumerate() {
        at.entry((n.title, n.number)).or_default().push(i);
        let t = top.entry(n.title).or_insert(0);
        *t = (*t).max(n.number);
    }
    let order: HashMap<&str, usize> = titles.iter().enumerate().map(|(k, t)| (*t, k)).collect();
    let counts = counts(tags);
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut out = Vec::with_capacity(tags.len());
    let (mut last_file, mut spent) = (0, 0);
    for tag in tags {
        let k = seen.entry(tag.name).or_insert(0);
        let ordinal = *k;
        *k += 1;
        let count = counts[tag.name];
        let by_tag = tag_titles.get(tag.name).filter(|v| v.len() == count).map(|v| v[ordinal]);
        let by_title = || {
            let same = lower.get(&tag.name.to_ascii_lowercase())?;
            (count == 1 && same.len() == 1).then(|| same[0])
        };
        let only = (titles.len() == 1).then(|| titles[0]);
        let Some(title) = by_tag.or_else(by_title).or(only) else {
            let shown: Vec<String> = titles.iter().take(4).map(|t| format!("`{t}`")).collect();
            let more = if titles.len() > 4 { ", ..." } else { "" };
            return Err(format!(
                "tag `{}` spans frames {} to {}, but the sheet holds the frames of {} files ({}{more}, by the frames' \
                 names) and nothing says which file's frames the tag counts: {BATCH}; export with `--filename-format \
                 '{{title}} #{{tag}} {{frame}}.{{extension}}'`, or one file per sheet",
                tag.name,
                tag.from,
                tag.to,
                titles.len(),
                shown.join(", ")
            ));
        };
        if tag.from > tag.to {
            return Err(beyond(tag, parsed.len()));
        }
        // Aseprite lists the tags file by file, in the order of the frames.
        let file = order[title];
        if file < last_file {
            return Err(format!(
                "tag `{}` spans frames {} to {}, and its frames' names place it in `{title}`, but it is listed after \
                 the tags of `{}`, a later file: {BATCH}, and lists them file by file, so the names and the list \
                 disagree",
                tag.name, tag.from, tag.to, titles[last_file]
            ));
        }
        last_file = file;
        if spent > MAX_TOTAL_FRAMES as usize {
            // Past the frames an export may convert to, the rest are not
            // looked up: the total refuses the export anyway.
            out.push(Placed { runs: vec![(tag.from, tag.to)], warning: None });
            continue;
        }
        // The first layer of the file; with `--split-tags` the same frame
        // may be listed once per tag: then the tag's own copy.
        let layer = parsed[first_of[title]].layer;
        let pick = |number: usize| {
            let list = at.get(&(title, number))?;
            let mut of_layer = list.iter().copied().filter(|&i| parsed[i].layer == layer);
            let all: Vec<usize> = of_layer.by_ref().collect();
            all.iter().copied().find(|&i| parsed[i].tag == Some(tag.name)).or(all.first().copied())
        };
        for end in [tag.from, tag.to] {
            if pick(end).is_none() {
                if titles.len() == 1 && tag.to > top[title] {
                    return Err(beyond(tag, parsed.len()));
                }
                return Err(format!(
                    "tag `{}` spans frames {} to {} of `{title}`, but the export has no frame {end} of `{title}` \
                     (by the frames' names), so the range cannot be placed ({BATCH}; `--ignore-empty` drops empty \
                     frames without moving the tags)",
                    tag.name, tag.from, tag.to
                ));
            }
        }
        // Numbers past the file's frames are not looked up one by one.
        let last = parsed.len();
        let indices: Vec<usize> = (tag.from..=tag.to.min(tag.from.saturating_add(last))).filter_map(pick).collect();
        spent += indices.len();
        let runs = runs_of(&indices);
        let offset = first_of[title];
        let shifted = tag.from.checked_add(offset).zip(tag.to.checked_add(offset));
        let why = if shifted.is_some_and(|s| runs == [s]) {
            BATCH.to_string()
        } else if offset > 0 {
            format!("{BATCH}; {IN_FILE}")
        } else {
            IN_FILE.to_string()
        };
        out.push(moved(tag, runs, &why));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_names_are_read_part_by_part() {
        let n = parse("hero (body) #Walk 12.aseprite").unwrap();
        assert_eq!((n.title, n.layer, n.tag, n.number), ("hero", Some("body"), Some("Walk"), 12));
        let n = parse("idle.ase").unwrap();
        assert_eq!((n.title, n.layer, n.tag, n.number), ("idle", None, None, 0));
        let n = parse("hero 3").unwrap();
        assert_eq!((n.title, n.number), ("hero", 3));
        assert!(parse("").is_none());
        assert!(parse(" 3.png").is_none());
    }

    #[test]
    fn tag_names_are_found_as_whole_parts() {
        let names: Vec<String> = ["hero_Walk:0", "hero_Walkers:0", "hero/Walk/1", "Walk"].map(String::from).into();
        let tags = [Written { name: "Walk", from: 0, to: 0 }, Written { name: "hero_Walk", from: 0, to: 0 }];
        let c = carried(&names, &tags);
        assert_eq!(c["Walk"], [(0, "hero_"), (2, "hero/"), (3, "")]);
        assert_eq!(c["hero_Walk"], [(0, "")]);
        assert_eq!(file_runs(&[(0, "a_"), (1, "a_"), (2, "b_"), (3, "b_"), (5, "b_")]), [(0, 1), (2, 3), (5, 5)]);
    }

    #[test]
    fn runs_are_shown_short() {
        assert_eq!(show(&runs_of(&[2, 3, 4, 7, 9, 10])), "2 to 4, 7, 9 to 10");
        let many: Vec<usize> = (0..40).map(|k| k * 2).collect();
        assert_eq!(show(&runs_of(&many)), "0, 2, 4, 6, 8, 10, 12, 14 and 32 more runs");
    }
}
