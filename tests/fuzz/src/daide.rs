//! DAIDE: the frame codec (`frames`), the token grammar both ways (`message`) and the text
//! form (`text`).

use bytes::BytesMut;
use tablero::daide::codec::{DaideCodec, Frame, FrameError, Role};
use tablero::daide::message::{Message, brackets_balanced, parse_message, parse_order};
use tablero::daide::text::{format_tokens, parse_text};
use tablero::daide::token::{Token, TokenTable};
use tokio_util::codec::{Decoder, Encoder};

/// The frames of a byte stream up to its first error, read in chunks of `chunk` bytes (all at
/// once for `usize::MAX`).
fn read_frames(codec: &mut DaideCodec, input: &[u8], chunk: usize) -> (Vec<Frame>, Option<String>) {
    let mut buf = BytesMut::new();
    let mut frames = Vec::new();
    for part in input.chunks(chunk.max(1)) {
        buf.extend_from_slice(part);
        loop {
            match codec.decode(&mut buf) {
                Ok(Some(frame)) => frames.push(frame),
                Ok(None) => break,
                Err(e) => return (frames, Some(e.to_string())),
            }
        }
    }
    (frames, None)
}

fn codec(role: u8, max: u8) -> DaideCodec {
    let codec = match role % 3 {
        0 => DaideCodec::new(),
        1 => DaideCodec::for_role(Role::Client),
        _ => DaideCodec::for_role(Role::Server),
    };
    // Small maxima let the fuzzer reach the size check; 255 keeps the default.
    if max == 255 {
        codec
    } else {
        codec.with_max_payload(usize::from(max) * 4)
    }
}

/// Two header bytes choose the role, the payload maximum and the chunking. Reading in chunks
/// gives the frames and error of reading at once; every frame encodes and decodes back to
/// itself (under the representation table in force when it arrived).
pub fn frames(data: &[u8]) {
    let [role, max, chunk, input @ ..] = data else {
        return;
    };
    let whole = read_frames(&mut codec(*role, *max), input, usize::MAX);
    let chunked = read_frames(&mut codec(*role, *max), input, usize::from(*chunk % 16) + 1);
    assert_eq!(whole, chunked, "chunked reading differs");
    let mut encoder = DaideCodec::new();
    let mut decoder = DaideCodec::new();
    for frame in whole.0 {
        let mut wire = BytesMut::new();
        match encoder.encode(frame.clone(), &mut wire) {
            Ok(()) => {}
            // An empty DM decodes but is never written.
            Err(FrameError::Encode(_)) if frame == Frame::Dm(Vec::new()) => continue,
            Err(e) => panic!("{frame:?} does not encode: {e}"),
        }
        let back = decoder.decode(&mut wire).map_err(|e| e.to_string());
        assert_eq!(back, Ok(Some(frame)), "frame does not decode back");
        assert!(wire.is_empty(), "bytes left after a frame");
    }
}

/// Tokens from big-endian pairs of bytes (codes that name no token are skipped).
fn tokens(data: &[u8]) -> Vec<Token> {
    data.chunks_exact(2)
        .filter_map(|c| Token::from_code(u16::from_be_bytes([c[0], c[1]])).ok())
        .collect()
}

/// A message's tokens parse back to it, and its tokens are canonical; an error's reply is a
/// message that round-trips too.
fn check_message_tokens(tokens: &[Token]) {
    let _ = brackets_balanced(tokens);
    let _ = parse_order(tokens);
    match parse_message(tokens) {
        Ok(message) => round_trip(&message),
        Err(e) => round_trip(&e.reply(tokens)),
    }
}

pub(crate) fn round_trip(message: &Message) {
    let printed = message.to_tokens();
    assert_eq!(
        parse_message(&printed).as_ref(),
        Ok(message),
        "{message:?} does not parse back from {printed:?}"
    );
    let again = Message::from_tokens(&printed).map(|m| m.to_tokens());
    assert_eq!(
        again,
        Ok(printed),
        "tokens of {message:?} are not canonical"
    );
}

/// The token grammar both ways, on token codes.
pub fn message(data: &[u8]) {
    check_message_tokens(&tokens(data));
}

/// The text form with the standard table: text that parses prints and parses back to the
/// same tokens; a message prints as text and reads back to itself.
pub fn text(data: &[u8]) {
    let table = TokenTable::standard();
    let text = String::from_utf8_lossy(data);
    let Ok(tokens) = parse_text(&text, &table) else {
        return;
    };
    let printed = format_tokens(&tokens, &table);
    assert_eq!(
        parse_text(&printed, &table).as_ref(),
        Ok(&tokens),
        "{printed:?} does not parse back"
    );
    check_message_tokens(&tokens);
    if let Ok(message) = parse_message(&tokens) {
        let text = message.to_text(&table);
        assert_eq!(
            Message::from_text(&text, &table).as_ref(),
            Ok(&message),
            "{text:?} does not read back"
        );
    }
}

#[cfg(test)]
mod seeds {
    use super::*;

    /// Messages of a short game in both directions, the turn-readiness interleavings among them.
    const MESSAGES: &[&str] = &[
        "NME ('tablero') ('1.0')",
        "OBS",
        "IAM (ENG) (1234)",
        "MAP ('STANDARD')",
        "MDF",
        "YES (MAP ('STANDARD'))",
        "HLO (ENG) (1234) ((LVL 0) (MTL 1200) (RTL 600) (BTL 600))",
        "NOW (SPR 1901) (ENG FLT LON) (ENG FLT EDI) (ENG AMY LVP) (GER FLT KIE)",
        "SCO (ENG LVP EDI LON) (GER BER KIE MUN) (UNO BEL HOL)",
        "SUB ((ENG FLT LON) MTO NTH) ((ENG FLT EDI) MTO NWG) ((ENG AMY LVP) MTO YOR)",
        "SUB ((ENG FLT LON) SUP (ENG FLT EDI) MTO NTH)",
        "SUB ((ENG AMY LVP) CTO NWY VIA (NTH NWG))",
        "SUB ((ENG FLT NTH) CVY (ENG AMY YOR) CTO NWY)",
        "SUB ((ENG FLT (STP NCS)) HLD)",
        "SUB ((ENG AMY LVP) RTO YOR) ((ENG FLT LON) DSB)",
        "SUB ((ENG FLT LON) BLD) (ENG WVE) ((ENG AMY LVP) REM)",
        "GOF",
        "NOT (GOF)",
        "MIS ((ENG FLT LON) (ENG AMY LVP))",
        "THX ((ENG FLT LON) MTO NTH) (MBV)",
        "THX ((ENG FLT LON) MTO NTH) (NRS)",
        "ORD (SPR 1901) ((GER FLT KIE) MTO DEN) (SUC)",
        "ORD (FAL 1901) ((ENG FLT NTH) HLD) (DSR)",
        "TME (30)",
        "DRW",
        "SLO (ENG)",
        "SMR (SPR 1902) (ENG ('tablero') ('1.0') 4) (GER ('dumbbot') ('1') 0 1901)",
        "OFF",
        "HUH (SUB ERR (ENG FLT LON) MTO)",
        "REJ (GOF)",
        "CCD (ENG)",
        "ADM ('tablero') ('hello')",
        "SND (FRA) (PRP (PCE (ENG FRA)))",
    ];

    #[test]
    #[ignore = "writes the DAIDE seed corpora: cargo test -- --ignored write_daide_seeds"]
    fn write_daide_seeds() {
        let table = TokenTable::standard();
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
        let mut stream = vec![0u8, 255, 7];
        let mut codec = DaideCodec::new();
        let mut wire = BytesMut::new();
        codec.encode(Frame::im(), &mut wire).unwrap();
        for (i, text) in MESSAGES.iter().enumerate() {
            let tokens = parse_text(text, &table).unwrap();
            let codes: Vec<u8> = tokens.iter().flat_map(|t| t.code().to_be_bytes()).collect();
            for (target, bytes) in [
                ("daide_text", text.as_bytes().to_vec()),
                ("daide_message", codes),
            ] {
                std::fs::create_dir_all(dir.join(target)).unwrap();
                std::fs::write(dir.join(target).join(format!("seed-{i:02}")), bytes).unwrap();
            }
            codec.encode(Frame::Dm(tokens), &mut wire).unwrap();
        }
        codec.encode(Frame::Fm, &mut wire).unwrap();
        stream.extend_from_slice(&wire);
        std::fs::create_dir_all(dir.join("daide_frames")).unwrap();
        std::fs::write(dir.join("daide_frames").join("seed-game"), &stream).unwrap();
        let mut rm = vec![2u8, 255, 3];
        let mut full = BytesMut::new();
        tablero::daide::codec::encode_full_rm(&table, &mut full);
        rm.extend_from_slice(&full);
        std::fs::write(dir.join("daide_frames").join("seed-rm"), rm).unwrap();
    }
}
