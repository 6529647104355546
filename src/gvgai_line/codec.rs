//! Line framing: one message per `\n`-terminated line (a trailing `\r` is dropped), with a
//! maximum length. An oversized line is reported as [`RawLine::TooLong`] as soon as it passes
//! the limit (whether or not its newline ever comes, so a peer cannot hold a session with an
//! endless line) and skipped up to its newline, so the stream stays usable; bytes that are not UTF-8 give
//! [`RawLine::NotUtf8`]. Then `<id>#<payload>[#<obsType>]` frames ([`Frame`]).

use bytes::{Buf, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

use super::LineError;

/// One input line as the codec delivers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RawLine {
    Line(String),
    /// A line longer than the limit (its length when seen), skipped; reported once.
    TooLong(usize),
    NotUtf8,
}

/// `\n`-delimited lines of at most `max` bytes.
#[derive(Debug, Clone)]
pub struct LineCodec {
    max: usize,
    /// Bytes of the buffer already searched for `\n`.
    next_index: usize,
    /// Inside an oversized line (already reported): skip to its end.
    discarding: bool,
}

impl LineCodec {
    pub fn new(max: usize) -> Self {
        LineCodec {
            max: max.max(1),
            next_index: 0,
            discarding: false,
        }
    }
}

fn finish(mut line: &[u8]) -> RawLine {
    if let Some(rest) = line.strip_suffix(b"\r") {
        line = rest;
    }
    match std::str::from_utf8(line) {
        Ok(s) => RawLine::Line(s.to_string()),
        Err(_) => RawLine::NotUtf8,
    }
}

impl Decoder for LineCodec {
    type Item = RawLine;
    type Error = std::io::Error;

    fn decode(&mut self, buf: &mut BytesMut) -> Result<Option<RawLine>, std::io::Error> {
        loop {
            let newline = buf[self.next_index..].iter().position(|&b| b == b'\n');
            match (self.discarding, newline) {
                (true, Some(off)) => {
                    buf.advance(self.next_index + off + 1);
                    self.next_index = 0;
                    self.discarding = false;
                }
                (true, None) => {
                    buf.clear();
                    self.next_index = 0;
                    return Ok(None);
                }
                (false, Some(off)) => {
                    let end = self.next_index + off;
                    self.next_index = 0;
                    if end > self.max {
                        buf.advance(end + 1);
                        return Ok(Some(RawLine::TooLong(end)));
                    }
                    let line = buf.split_to(end + 1);
                    return Ok(Some(finish(&line[..end])));
                }
                (false, None) => {
                    if buf.len() > self.max {
                        let len = buf.len();
                        buf.clear();
                        self.next_index = 0;
                        self.discarding = true;
                        return Ok(Some(RawLine::TooLong(len)));
                    }
                    self.next_index = buf.len();
                    return Ok(None);
                }
            }
        }
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> Result<Option<RawLine>, std::io::Error> {
        if let Some(line) = self.decode(buf)? {
            return Ok(Some(line));
        }
        // A last line without its newline is accepted; the rest of a skipped one is dropped.
        self.next_index = 0;
        if std::mem::take(&mut self.discarding) {
            buf.clear();
            return Ok(None);
        }
        if buf.is_empty() {
            return Ok(None);
        }
        let line = buf.split();
        Ok(Some(finish(&line)))
    }
}

impl Encoder<String> for LineCodec {
    type Error = std::io::Error;

    fn encode(&mut self, line: String, buf: &mut BytesMut) -> Result<(), std::io::Error> {
        buf.reserve(line.len() + 1);
        buf.extend_from_slice(line.as_bytes());
        buf.extend_from_slice(b"\n");
        Ok(())
    }
}

/// The observation encoding a client asks for (`#JSON`, `#IMAGE`, `#BOTH`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObsType {
    Json,
    Image,
    Both,
}

impl ObsType {
    pub fn as_str(self) -> &'static str {
        match self {
            ObsType::Json => "JSON",
            ObsType::Image => "IMAGE",
            ObsType::Both => "BOTH",
        }
    }
}

/// One message: `<id>#<payload>[#<obsType>]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    pub id: u64,
    pub payload: String,
    pub obs_type: Option<ObsType>,
}

impl Frame {
    pub fn new(id: u64, payload: impl Into<String>) -> Frame {
        Frame {
            id,
            payload: payload.into(),
            obs_type: None,
        }
    }

    pub fn with_obs_type(mut self, t: ObsType) -> Frame {
        self.obs_type = Some(t);
        self
    }

    /// A server line: `<id>#<payload>`; the payload (JSON) is everything after the first `#`.
    pub fn parse_server(line: &str) -> Result<Frame, LineError> {
        let (id, payload) = line.split_once('#').ok_or_else(|| LineError::Malformed {
            reason: "no '#' between message id and payload".into(),
            line: excerpt(line),
        })?;
        Ok(Frame::new(parse_id(id, line)?, payload.trim()))
    }

    /// A client reply: `<id>#<payload>[#<obsType>]`.
    pub fn parse_client(line: &str) -> Result<Frame, LineError> {
        let mut parts = line.split('#');
        let id = parts.next().unwrap_or_default();
        let Some(payload) = parts.next() else {
            return Err(LineError::Malformed {
                reason: "no '#' between message id and payload".into(),
                line: excerpt(line),
            });
        };
        // An unknown observation type is ignored, the message kept (GVG-AI's `SocketComm`
        // logs it and keeps the previous type).
        let obs_type = match parts.next().map(str::trim) {
            Some("JSON") => Some(ObsType::Json),
            Some("IMAGE") => Some(ObsType::Image),
            Some("BOTH") => Some(ObsType::Both),
            _ => None,
        };
        let mut f = Frame::new(parse_id(id, line)?, payload.trim());
        f.obs_type = obs_type;
        Ok(f)
    }

    /// The line, without its newline.
    pub fn to_line(&self) -> String {
        match self.obs_type {
            Some(t) => format!("{}#{}#{}", self.id, self.payload, t.as_str()),
            None => format!("{}#{}", self.id, self.payload),
        }
    }
}

fn parse_id(id: &str, line: &str) -> Result<u64, LineError> {
    let id = id.trim();
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
        return Err(LineError::Malformed {
            reason: format!("message id {:?} is not a number", excerpt(id)),
            line: excerpt(line),
        });
    }
    id.parse().map_err(|_| LineError::Malformed {
        reason: "message id is too large".into(),
        line: excerpt(line),
    })
}

/// At most 80 characters of a line, for error messages.
pub fn excerpt(line: &str) -> String {
    let mut s: String = line.chars().take(80).collect();
    if s.len() < line.len() {
        s.push('…');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_all(codec: &mut LineCodec, input: &[u8]) -> Vec<RawLine> {
        let mut buf = BytesMut::from(input);
        let mut out = Vec::new();
        while let Some(l) = codec.decode(&mut buf).unwrap() {
            out.push(l);
        }
        if let Some(l) = codec.decode_eof(&mut buf).unwrap() {
            out.push(l);
        }
        out
    }

    #[test]
    fn lines_crlf_oversize_and_bad_utf8() {
        let mut c = LineCodec::new(8);
        let out = decode_all(&mut c, b"0#START\r\n1#0123456789abc\n\xff\xfe\n2#A\nlast");
        assert_eq!(
            out,
            vec![
                RawLine::Line("0#START".into()),
                RawLine::TooLong(15),
                RawLine::NotUtf8,
                RawLine::Line("2#A".into()),
                RawLine::Line("last".into()),
            ]
        );
    }

    #[test]
    fn oversized_line_split_over_reads_is_skipped_once() {
        let mut c = LineCodec::new(4);
        let mut buf = BytesMut::from(&b"123456"[..]);
        // Reported as soon as it passes the limit, before any newline.
        assert_eq!(c.decode(&mut buf).unwrap(), Some(RawLine::TooLong(6)));
        assert_eq!(c.decode(&mut buf).unwrap(), None);
        buf.extend_from_slice(b"78");
        assert_eq!(c.decode(&mut buf).unwrap(), None);
        buf.extend_from_slice(b"9\n1#X\n");
        assert_eq!(
            c.decode(&mut buf).unwrap(),
            Some(RawLine::Line("1#X".into()))
        );
    }

    #[test]
    fn frames_parse_and_print() {
        let f = Frame::parse_client("12#ACTION_UP#JSON").unwrap();
        assert_eq!(
            (f.id, f.payload.as_str(), f.obs_type),
            (12, "ACTION_UP", Some(ObsType::Json))
        );
        assert_eq!(f.to_line(), "12#ACTION_UP#JSON");
        let s = Frame::parse_server("3#{\"a\":\"#\"}").unwrap();
        assert_eq!((s.id, s.payload.as_str()), (3, "{\"a\":\"#\"}"));
        for bad in ["", "START", "x#START", "-1#A", "99999999999999999999999#A"] {
            assert!(Frame::parse_client(bad).is_err(), "{bad}");
        }
        let f = Frame::parse_client("1#A#PNG").unwrap();
        assert_eq!((f.payload.as_str(), f.obs_type), ("A", None));
        assert!(Frame::parse_server("abc").is_err());
    }
}
