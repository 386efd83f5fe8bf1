//! The reader's input buffer: the bytes held, followed by a tail of spare
//! bytes that were written before (by an earlier read, or zeroed once when
//! the buffer grew) and are reused by the next read, so that a read does
//! not zero 64 KiB first.

use std::ops::Deref;

/// Bytes of input held, plus a reusable tail past them.
#[derive(Default)]
pub(super) struct Input {
    /// `bytes[..len]` is the input held; `bytes[len..]` is spare.
    bytes: Vec<u8>,
    len: usize,
}

impl Deref for Input {
    type Target = [u8];
    #[inline(always)]
    fn deref(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl Input {
    /// Appends `more` after the bytes held.
    pub(super) fn extend_from_slice(&mut self, more: &[u8]) {
        let end = self.len + more.len();
        if end <= self.bytes.len() {
            self.bytes[self.len..end].copy_from_slice(more);
        } else {
            self.bytes.truncate(self.len);
            self.bytes.extend_from_slice(more);
        }
        self.len = end;
    }

    /// Drops the first `n` bytes held (`n` at most the count held); the
    /// spare tail grows by as much.
    pub(super) fn drop_front(&mut self, n: usize) {
        self.bytes.copy_within(n..self.len, 0);
        self.len -= n;
    }

    /// One `read` from `src` of at most `chunk` bytes, appended; the
    /// buffer is only zeroed where it grows.
    pub(super) fn read_from(&mut self, src: &mut impl std::io::Read, chunk: usize) -> std::io::Result<usize> {
        let end = self.len + chunk;
        if self.bytes.len() < end {
            self.bytes.resize(end, 0);
        }
        let got = src.read(&mut self.bytes[self.len..end]);
        if let Ok(n) = got {
            // A reader claiming more than it was given is not trusted.
            self.len += n.min(chunk);
        }
        got
    }
}

#[cfg(test)]
mod tests {
    use super::Input;

    #[test]
    fn spare_bytes_are_reused_and_never_seen() {
        let mut input = Input::default();
        assert_eq!(input.read_from(&mut &b"abcdef"[..], 8).unwrap(), 6);
        assert_eq!(&*input, b"abcdef");
        input.drop_front(4);
        assert_eq!(&*input, b"ef");
        // The tail still holds old bytes; none of them shows.
        input.extend_from_slice(b"gh");
        assert_eq!(&*input, b"efgh");
        assert_eq!(input.read_from(&mut &b"ij"[..], 8).unwrap(), 2);
        assert_eq!(&*input, b"efghij");
        assert_eq!(input.read_from(&mut &b""[..], 8).unwrap(), 0);
        assert_eq!(&*input, b"efghij");
        // Past the spare tail, the buffer grows.
        input.extend_from_slice(b"klmnopqrstuvwxyz");
        assert_eq!(&*input, b"efghijklmnopqrstuvwxyz");
        input.drop_front(22);
        assert_eq!(&*input, b"");
        assert_eq!(input.read_from(&mut &b"0123456789"[..], 4).unwrap(), 4);
        assert_eq!(&*input, b"0123");
    }
}
