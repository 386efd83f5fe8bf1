fn main() {
    use animkit_grammar::sprite::ast::*;
    println!(
        "Frame {} State {} Name {} Number {} File {}",
        size_of::<Frame>(),
        size_of::<State>(),
        size_of::<Name>(),
        size_of::<Number>(),
        size_of::<File>()
    );
    println!(
        "ErrorRecovery {}",
        size_of::<
            lalrpop_util::ErrorRecovery<usize, animkit_grammar::sprite::lexer::Tok<'static>, std::convert::Infallible>,
        >()
    );
}
