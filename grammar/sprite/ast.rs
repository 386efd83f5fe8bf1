//! The sprite DSL syntax tree. Every node keeps its byte span.
//!
//! The tree records what was written, not what it means: negative numbers,
//! fractions, unknown `_names` and misplaced end behaviours all parse, so
//! that the checker can explain them precisely.

use crate::Span;

/// A whole `.anim` file: its states and comments in source order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct File {
    /// One entry per `Name: frames` line.
    pub states: Vec<State>,
    /// Every `# comment`, kept for the formatter.
    pub comments: Vec<Comment>,
}

/// A `# comment` (the text includes the `#`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    /// The text, from `#` to the end of the line.
    pub text: String,
    /// Where it is.
    pub span: Span,
}

impl File {
    /// The same tree with every span set to `0..0`, to compare trees
    /// regardless of layout (the formatter's round-trip property).
    ///
    /// ```
    /// let (a, _) = animkit_grammar::sprite::parse("A: 5, _loop\n");
    /// let (b, _) = animkit_grammar::sprite::parse("A:5,_loop");
    /// assert_ne!(a, b);
    /// assert_eq!(a.without_spans(), b.without_spans());
    /// ```
    pub fn without_spans(&self) -> File {
        let z = Span::default();
        let name = |n: &Name| Name { text: n.text.clone(), span: z };
        let num = |n: &Number| Number { text: n.text.clone(), negative: n.negative, span: z };
        File {
            states: self
                .states
                .iter()
                .map(|s| State {
                    name: name(&s.name),
                    category: s.category.as_ref().map(name),
                    frames: s
                        .frames
                        .iter()
                        .map(|f| match f {
                            Frame::Timed { duration, index, events, .. } => Frame::Timed {
                                duration: num(duration),
                                index: index.as_ref().map(num),
                                events: events.iter().map(name).collect(),
                                span: z,
                            },
                            Frame::Control { head, events, .. } => {
                                Frame::Control { head: name(head), events: events.iter().map(name).collect(), span: z }
                            }
                        })
                        .collect(),
                    span: z,
                })
                .collect(),
            comments: self.comments.iter().map(|c| Comment { text: c.text.clone(), span: z }).collect(),
        }
    }
}

/// `Name[Category]: frame, frame, ...`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// The state's name, used by `set_state`.
    pub name: Name,
    /// The optional sprite category alias inside `[...]`.
    pub category: Option<Name>,
    /// The frames, in order.
    pub frames: Vec<Frame>,
    /// From the name to the end of the last frame.
    pub span: Span,
}

/// A name as written: state, category, event or `_special`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    /// The name's text.
    pub text: String,
    /// Where it is.
    pub span: Span,
}

/// A number as written, with an optional leading `-`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Number {
    /// The digits (and fraction, if one was written), without the sign.
    pub text: String,
    /// True when a `-` preceded it.
    pub negative: bool,
    /// Sign included.
    pub span: Span,
}

/// One entry of a state's frame list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Frame {
    /// `D`, `D|I`, `D|event...`, `D|I|event...`
    Timed {
        /// Ticks to display the frame.
        duration: Number,
        /// Explicit sprite index, if given.
        index: Option<Number>,
        /// Custom events fired on entering the frame, in order.
        events: Vec<Name>,
        /// The whole frame.
        span: Span,
    },
    /// An events-only frame: `_loop`, `_wait`, `_pingpong` or a state name,
    /// each optionally followed by `|event...`.
    Control {
        /// The first name: the end behaviour.
        head: Name,
        /// The names after it.
        events: Vec<Name>,
        /// The whole frame.
        span: Span,
    },
}

impl Frame {
    /// The frame's span.
    pub fn span(&self) -> Span {
        match self {
            Frame::Timed { span, .. } | Frame::Control { span, .. } => *span,
        }
    }
}
