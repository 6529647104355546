//! DAIDE TCP framing as a tokio-util [`Decoder`]/[`Encoder`].
//!
//! Every message is a 4-byte header (type, padding, big-endian u16 payload
//! length) followed by the payload. Five types exist: IM (client hello), RM
//! (representation), DM (language message), FM (final) and EM (error).
//!
//! The codec owns the current [`TokenTable`]: decoding a non-empty RM installs
//! its table (client side), encoding one installs it too (server side), and DM
//! tokens are checked against it. When given a [`Role`], the decoder also checks
//! message order (IM first and once, RM first from the server, no DM before the
//! handshake). Every malformed frame is a typed [`FrameError`]; [`FrameError::em_code`]
//! says which EM code the spec asks to send before closing.

use bytes::{Buf, BufMut, BytesMut};
use thiserror::Error;
use tokio_util::codec::{Decoder, Encoder};

use super::token::{Token, TokenError, TokenTable};

/// Length of the frame header.
pub const HEADER_LEN: usize = 4;
/// The IM version tablero speaks.
pub const IM_VERSION: u16 = 1;
/// The IM magic number.
pub const IM_MAGIC: u16 = 0xDA10;
/// Default maximum payload size (the largest the u16 length allows).
pub const DEFAULT_MAX_PAYLOAD: usize = u16::MAX as usize;

/// The message types of the header's first byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MessageType {
    /// Initial message (client → server).
    Im = 0,
    /// Representation message (server → client).
    Rm = 1,
    /// Diplomacy message (both ways).
    Dm = 2,
    /// Final message (both ways).
    Fm = 3,
    /// Error message (both ways).
    Em = 4,
}

/// EM error codes (DCSP).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// 0x01: IM timer expired.
    ImTimeout,
    /// 0x02: IM was not the first message.
    ImNotFirst,
    /// 0x03: the IM magic arrived byte-swapped.
    WrongEndian,
    /// 0x04: bad magic number.
    BadMagic,
    /// 0x05: incompatible version.
    IncompatibleVersion,
    /// 0x06: more than one IM.
    DuplicateIm,
    /// 0x07: IM sent by the server.
    ImFromServer,
    /// 0x08: unknown message type.
    UnknownType,
    /// 0x09: message shorter than expected.
    TooShort,
    /// 0x0A: DM before RM.
    DmBeforeRm,
    /// 0x0B: RM was not the first message from the server.
    RmNotFirst,
    /// 0x0C: unexpected or second RM.
    UnexpectedRm,
    /// 0x0D: RM sent by the client.
    RmFromClient,
    /// 0x0E: invalid token in a DM.
    InvalidToken,
    /// Any other code received from a peer.
    Other(u16),
}

impl ErrorCode {
    /// The wire value.
    pub fn code(self) -> u16 {
        match self {
            ErrorCode::ImTimeout => 0x01,
            ErrorCode::ImNotFirst => 0x02,
            ErrorCode::WrongEndian => 0x03,
            ErrorCode::BadMagic => 0x04,
            ErrorCode::IncompatibleVersion => 0x05,
            ErrorCode::DuplicateIm => 0x06,
            ErrorCode::ImFromServer => 0x07,
            ErrorCode::UnknownType => 0x08,
            ErrorCode::TooShort => 0x09,
            ErrorCode::DmBeforeRm => 0x0A,
            ErrorCode::RmNotFirst => 0x0B,
            ErrorCode::UnexpectedRm => 0x0C,
            ErrorCode::RmFromClient => 0x0D,
            ErrorCode::InvalidToken => 0x0E,
            ErrorCode::Other(c) => c,
        }
    }

    /// Decodes a wire value (unknown values become [`ErrorCode::Other`]).
    pub fn from_code(c: u16) -> ErrorCode {
        match c {
            0x01 => ErrorCode::ImTimeout,
            0x02 => ErrorCode::ImNotFirst,
            0x03 => ErrorCode::WrongEndian,
            0x04 => ErrorCode::BadMagic,
            0x05 => ErrorCode::IncompatibleVersion,
            0x06 => ErrorCode::DuplicateIm,
            0x07 => ErrorCode::ImFromServer,
            0x08 => ErrorCode::UnknownType,
            0x09 => ErrorCode::TooShort,
            0x0A => ErrorCode::DmBeforeRm,
            0x0B => ErrorCode::RmNotFirst,
            0x0C => ErrorCode::UnexpectedRm,
            0x0D => ErrorCode::RmFromClient,
            0x0E => ErrorCode::InvalidToken,
            other => ErrorCode::Other(other),
        }
    }
}

/// One decoded frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    /// IM with its version (the magic has been checked).
    Im {
        /// Protocol version (1).
        version: u16,
    },
    /// RM with the table it defines (the standard table for an empty RM).
    Rm(TokenTable),
    /// DM: one language message.
    Dm(Vec<Token>),
    /// FM: the peer is closing.
    Fm,
    /// EM: the peer reports an error and closes.
    Em(ErrorCode),
}

impl Frame {
    /// The standard IM a client sends.
    pub fn im() -> Frame {
        Frame::Im {
            version: IM_VERSION,
        }
    }
}

/// Framing errors. [`FrameError::em_code`] maps them onto EM codes.
#[derive(Debug, Error)]
pub enum FrameError {
    /// Socket error.
    #[error("i/o error: {0}")]
    Io(#[from] std::io::Error),
    /// Unknown message type byte.
    #[error("unknown message type {0}")]
    UnknownType(u8),
    /// Payload length above the configured maximum.
    #[error("payload of {len} bytes exceeds the maximum of {max}")]
    TooLarge {
        /// Announced length.
        len: usize,
        /// Configured maximum.
        max: usize,
    },
    /// A payload too short (or of the wrong length) for its type.
    #[error("{kind:?} payload of {len} bytes has the wrong length")]
    BadLength {
        /// The message type.
        kind: MessageType,
        /// Payload length.
        len: usize,
    },
    /// IM magic byte-swapped: the peer wrote little-endian.
    #[error("IM arrived little-endian")]
    WrongEndian,
    /// IM magic wrong.
    #[error("bad IM magic 0x{0:04X}")]
    BadMagic(u16),
    /// IM version other than 1.
    #[error("incompatible IM version {0}")]
    IncompatibleVersion(u16),
    /// A DM carried a token that is not valid (or not in the RM table).
    #[error("invalid token in DM: {0}")]
    InvalidToken(#[from] TokenError),
    /// An RM payload that is not a valid table.
    #[error("bad RM: {0}")]
    BadRm(TokenError),
    /// A message arriving out of order for the role.
    #[error("message out of order: {0:?}")]
    Order(ErrorCode),
    /// An encoder was asked to write something that does not fit or is invalid.
    #[error("cannot encode: {0}")]
    Encode(String),
}

impl FrameError {
    /// The EM code the spec asks for, if any (I/O and encoder errors have none).
    pub fn em_code(&self) -> Option<ErrorCode> {
        match self {
            FrameError::Io(_) | FrameError::Encode(_) | FrameError::TooLarge { .. } => None,
            FrameError::UnknownType(_) => Some(ErrorCode::UnknownType),
            FrameError::BadLength { .. } | FrameError::BadRm(_) => Some(ErrorCode::TooShort),
            FrameError::WrongEndian => Some(ErrorCode::WrongEndian),
            FrameError::BadMagic(_) => Some(ErrorCode::BadMagic),
            FrameError::IncompatibleVersion(_) => Some(ErrorCode::IncompatibleVersion),
            FrameError::InvalidToken(_) => Some(ErrorCode::InvalidToken),
            FrameError::Order(c) => Some(*c),
        }
    }
}

/// Which end of the connection this codec serves; enables order checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// We are the client: we receive RM, DM, FM, EM.
    Client,
    /// We are the server: we receive IM, DM, FM, EM.
    Server,
}

/// The DAIDE frame codec.
#[derive(Debug, Clone)]
pub struct DaideCodec {
    max_payload: usize,
    table: TokenTable,
    role: Option<Role>,
    handshake_done: bool,
}

impl Default for DaideCodec {
    fn default() -> Self {
        Self::new()
    }
}

impl DaideCodec {
    /// A codec with the standard table, no order checks and the default maximum.
    pub fn new() -> Self {
        DaideCodec {
            max_payload: DEFAULT_MAX_PAYLOAD,
            table: TokenTable::standard(),
            role: None,
            handshake_done: false,
        }
    }

    /// A codec that checks message order for `role`.
    pub fn for_role(role: Role) -> Self {
        DaideCodec {
            role: Some(role),
            ..Self::new()
        }
    }

    /// Sets the maximum payload size (clamped to the u16 range).
    pub fn with_max_payload(mut self, max: usize) -> Self {
        self.max_payload = max.min(DEFAULT_MAX_PAYLOAD);
        self
    }

    /// The current representation table.
    pub fn table(&self) -> &TokenTable {
        &self.table
    }

    /// Replaces the representation table.
    pub fn set_table(&mut self, table: TokenTable) {
        self.table = table;
    }

    fn decode_payload(&mut self, kind: u8, payload: &[u8]) -> Result<Frame, FrameError> {
        let len = payload.len();
        match kind {
            0 => {
                match self.role {
                    Some(Role::Client) => return Err(FrameError::Order(ErrorCode::ImFromServer)),
                    Some(Role::Server) if self.handshake_done => {
                        return Err(FrameError::Order(ErrorCode::DuplicateIm));
                    }
                    _ => {}
                }
                if len != 4 {
                    return Err(FrameError::BadLength {
                        kind: MessageType::Im,
                        len,
                    });
                }
                let version = u16::from_be_bytes([payload[0], payload[1]]);
                let magic = u16::from_be_bytes([payload[2], payload[3]]);
                if magic == IM_MAGIC.swap_bytes() {
                    return Err(FrameError::WrongEndian);
                }
                if magic != IM_MAGIC {
                    return Err(FrameError::BadMagic(magic));
                }
                if version != IM_VERSION {
                    return Err(FrameError::IncompatibleVersion(version));
                }
                self.handshake_done = true;
                Ok(Frame::Im { version })
            }
            1 => {
                match self.role {
                    Some(Role::Server) => return Err(FrameError::Order(ErrorCode::RmFromClient)),
                    Some(Role::Client) if self.handshake_done => {
                        return Err(FrameError::Order(ErrorCode::UnexpectedRm));
                    }
                    _ => {}
                }
                let table = TokenTable::from_rm(payload).map_err(FrameError::BadRm)?;
                self.table = table.clone();
                self.handshake_done = true;
                Ok(Frame::Rm(table))
            }
            2 => {
                match self.role {
                    Some(Role::Client) if !self.handshake_done => {
                        return Err(FrameError::Order(ErrorCode::RmNotFirst));
                    }
                    Some(Role::Server) if !self.handshake_done => {
                        return Err(FrameError::Order(ErrorCode::ImNotFirst));
                    }
                    _ => {}
                }
                if len < 2 || len % 2 != 0 {
                    return Err(FrameError::BadLength {
                        kind: MessageType::Dm,
                        len,
                    });
                }
                let tokens = payload
                    .chunks_exact(2)
                    .map(|c| self.table.decode(u16::from_be_bytes([c[0], c[1]])))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Frame::Dm(tokens))
            }
            3 => Ok(Frame::Fm),
            4 => {
                if len != 2 {
                    return Err(FrameError::BadLength {
                        kind: MessageType::Em,
                        len,
                    });
                }
                Ok(Frame::Em(ErrorCode::from_code(u16::from_be_bytes([
                    payload[0], payload[1],
                ]))))
            }
            other => Err(FrameError::UnknownType(other)),
        }
    }
}

impl Decoder for DaideCodec {
    type Item = Frame;
    type Error = FrameError;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Frame>, FrameError> {
        if src.len() < HEADER_LEN {
            return Ok(None);
        }
        let kind = src[0];
        let len = u16::from_be_bytes([src[2], src[3]]) as usize;
        // A little-endian IM announces length 0x0400: say so at once instead of
        // waiting for 1024 bytes that never come.
        if kind == 0 && len == 0x0400 && !self.handshake_done && self.role != Some(Role::Client) {
            return Err(FrameError::WrongEndian);
        }
        if kind > 4 {
            return Err(FrameError::UnknownType(kind));
        }
        if len > self.max_payload {
            return Err(FrameError::TooLarge {
                len,
                max: self.max_payload,
            });
        }
        if src.len() < HEADER_LEN + len {
            src.reserve(HEADER_LEN + len - src.len());
            return Ok(None);
        }
        src.advance(HEADER_LEN);
        let payload = src.split_to(len);
        self.decode_payload(kind, &payload).map(Some)
    }
}

impl Encoder<Frame> for DaideCodec {
    type Error = FrameError;

    fn encode(&mut self, frame: Frame, dst: &mut BytesMut) -> Result<(), FrameError> {
        let (kind, payload): (MessageType, Vec<u8>) = match frame {
            Frame::Im { version } => {
                let mut p = version.to_be_bytes().to_vec();
                p.extend_from_slice(&IM_MAGIC.to_be_bytes());
                (MessageType::Im, p)
            }
            Frame::Rm(table) => {
                let p = if table.is_standard() {
                    Vec::new()
                } else {
                    table.to_rm()
                };
                self.table = table;
                (MessageType::Rm, p)
            }
            Frame::Dm(tokens) => {
                if tokens.is_empty() {
                    return Err(FrameError::Encode("empty DM".into()));
                }
                let mut p = Vec::with_capacity(tokens.len() * 2);
                for t in tokens {
                    p.extend_from_slice(&t.code().to_be_bytes());
                }
                (MessageType::Dm, p)
            }
            Frame::Fm => (MessageType::Fm, Vec::new()),
            Frame::Em(code) => (MessageType::Em, code.code().to_be_bytes().to_vec()),
        };
        if payload.len() > self.max_payload {
            return Err(FrameError::Encode(format!(
                "{kind:?} payload of {} bytes exceeds the maximum of {}",
                payload.len(),
                self.max_payload
            )));
        }
        dst.reserve(HEADER_LEN + payload.len());
        dst.put_u8(kind as u8);
        dst.put_u8(0);
        // Fits: max_payload ≤ u16::MAX.
        dst.put_u16(payload.len() as u16);
        dst.put_slice(&payload);
        Ok(())
    }
}

/// Encodes an RM carrying `table` in full, even if it is the standard one
/// (a spec-faithful server may do so).
pub fn encode_full_rm(table: &TokenTable, dst: &mut BytesMut) {
    let p = table.to_rm();
    dst.put_u8(MessageType::Rm as u8);
    dst.put_u8(0);
    dst.put_u16(p.len().min(u16::MAX as usize) as u16);
    dst.put_slice(&p[..p.len().min(u16::MAX as usize)]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::daide::token::{Command, PowerToken};

    fn decode_all(codec: &mut DaideCodec, bytes: &[u8]) -> Result<Vec<Frame>, FrameError> {
        let mut buf = BytesMut::from(bytes);
        let mut out = Vec::new();
        while let Some(f) = codec.decode(&mut buf)? {
            out.push(f);
        }
        Ok(out)
    }

    #[test]
    fn im_wire_bytes_match_spec() {
        let mut buf = BytesMut::new();
        DaideCodec::new().encode(Frame::im(), &mut buf).unwrap();
        assert_eq!(&buf[..], &[0, 0, 0, 4, 0, 1, 0xDA, 0x10]);
        let frames = decode_all(&mut DaideCodec::for_role(Role::Server), &buf).unwrap();
        assert_eq!(frames, vec![Frame::im()]);
    }

    #[test]
    fn frames_round_trip_and_partial_input_waits() {
        let frames = vec![
            Frame::Rm(TokenTable::standard()),
            Frame::Dm(vec![
                Token::Command(Command::Hlo),
                Token::Bra,
                Token::Power(PowerToken(0)),
                Token::Ket,
            ]),
            Frame::Em(ErrorCode::InvalidToken),
            Frame::Em(ErrorCode::Other(0x77)),
            Frame::Fm,
        ];
        let mut enc = DaideCodec::new();
        let mut buf = BytesMut::new();
        for f in frames.clone() {
            enc.encode(f, &mut buf).unwrap();
        }
        // Feed one byte at a time.
        let mut dec = DaideCodec::for_role(Role::Client);
        let mut got = Vec::new();
        let mut src = BytesMut::new();
        for b in buf.iter() {
            src.put_u8(*b);
            while let Some(f) = dec.decode(&mut src).unwrap() {
                got.push(f);
            }
        }
        assert_eq!(got, frames);
    }

    #[test]
    fn im_errors_map_to_em_codes() {
        let cases: [(&[u8], ErrorCode); 5] = [
            (&[0, 0, 0, 4, 0, 1, 0x10, 0xDA], ErrorCode::WrongEndian),
            (&[0, 0, 4, 0, 1, 0, 0x10, 0xDA], ErrorCode::WrongEndian),
            (&[0, 0, 0, 4, 0, 1, 0xDA, 0x11], ErrorCode::BadMagic),
            (
                &[0, 0, 0, 4, 0, 2, 0xDA, 0x10],
                ErrorCode::IncompatibleVersion,
            ),
            (&[0, 0, 0, 2, 0, 1], ErrorCode::TooShort),
        ];
        for (bytes, code) in cases {
            let e = decode_all(&mut DaideCodec::for_role(Role::Server), bytes).unwrap_err();
            assert_eq!(e.em_code(), Some(code), "{bytes:?}: {e}");
        }
    }

    #[test]
    fn order_errors_map_to_em_codes() {
        let im = [0u8, 0, 0, 4, 0, 1, 0xDA, 0x10];
        let dm = [2u8, 0, 0, 2, 0x48, 0x03];
        let rm = [1u8, 0, 0, 0];
        let check = |role, bytes: &[u8], code| {
            let e = decode_all(&mut DaideCodec::for_role(role), bytes).unwrap_err();
            assert_eq!(e.em_code(), Some(code), "{bytes:?}");
        };
        check(Role::Server, &dm, ErrorCode::ImNotFirst);
        check(
            Role::Server,
            &[&im[..], &im[..]].concat(),
            ErrorCode::DuplicateIm,
        );
        check(
            Role::Server,
            &[&im[..], &rm[..]].concat(),
            ErrorCode::RmFromClient,
        );
        check(Role::Client, &dm, ErrorCode::RmNotFirst);
        check(
            Role::Client,
            &[&rm[..], &rm[..]].concat(),
            ErrorCode::UnexpectedRm,
        );
        check(Role::Client, &im, ErrorCode::ImFromServer);
        check(Role::Client, &[5, 0, 0, 0], ErrorCode::UnknownType);
    }

    #[test]
    fn dm_errors() {
        let mut c = DaideCodec::new();
        // Odd length.
        let e = decode_all(&mut c, &[2, 0, 0, 3, 0x48, 0x03, 0]).unwrap_err();
        assert_eq!(e.em_code(), Some(ErrorCode::TooShort));
        // Empty DM.
        let e = decode_all(&mut DaideCodec::new(), &[2, 0, 0, 0]).unwrap_err();
        assert_eq!(e.em_code(), Some(ErrorCode::TooShort));
        // Unknown category 0x4C.
        let e = decode_all(&mut DaideCodec::new(), &[2, 0, 0, 2, 0x4C, 0]).unwrap_err();
        assert_eq!(e.em_code(), Some(ErrorCode::InvalidToken));
        // Power 0x4107 undefined in the standard table.
        let e = decode_all(&mut DaideCodec::new(), &[2, 0, 0, 2, 0x41, 7]).unwrap_err();
        assert_eq!(e.em_code(), Some(ErrorCode::InvalidToken));
    }

    #[test]
    fn rm_installs_table_for_later_dms() {
        let rm_payload = [0x41u8, 0x07, b'X', b'Y', b'Z', 0];
        let mut bytes = vec![1, 0, 0, 6];
        bytes.extend_from_slice(&rm_payload);
        bytes.extend_from_slice(&[2, 0, 0, 2, 0x41, 0x07]);
        let mut c = DaideCodec::for_role(Role::Client);
        let frames = decode_all(&mut c, &bytes).unwrap();
        assert_eq!(frames.len(), 2);
        assert_eq!(frames[1], Frame::Dm(vec![Token::Power(PowerToken(7))]));
        assert_eq!(c.table().power("XYZ"), Some(PowerToken(7)));
        // AUS is gone under this RM.
        let e = decode_all(&mut c, &[2, 0, 0, 2, 0x41, 0x00]).unwrap_err();
        assert_eq!(e.em_code(), Some(ErrorCode::InvalidToken));
    }

    #[test]
    fn max_payload_is_enforced_both_ways() {
        let mut c = DaideCodec::new().with_max_payload(4);
        let e = decode_all(&mut c, &[2, 0, 0, 6, 0x48, 0, 0x48, 0, 0x48, 0]).unwrap_err();
        assert!(matches!(e, FrameError::TooLarge { len: 6, max: 4 }));
        let mut buf = BytesMut::new();
        let big = Frame::Dm(vec![Token::Bra; 3]);
        assert!(c.encode(big, &mut buf).is_err());
        assert!(buf.is_empty());
    }

    #[test]
    fn full_standard_rm_is_492_bytes_and_decodes() {
        let mut buf = BytesMut::new();
        encode_full_rm(&TokenTable::standard(), &mut buf);
        assert_eq!(buf.len(), 4 + 492);
        let frames = decode_all(&mut DaideCodec::for_role(Role::Client), &buf).unwrap();
        assert_eq!(frames, vec![Frame::Rm(TokenTable::standard())]);
    }
}
