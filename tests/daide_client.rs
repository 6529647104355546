//! The DAIDE client driver over an in-memory duplex pipe against a scripted
//! server: IM/RM handshake, NME, MAP/MDF/YES, HLO, SCO, NOW, one SUB + GOF per
//! phase, THX/ORD, SLO/SMR/OFF, and FM on close.

use futures::{SinkExt, StreamExt};
use tablero::budget::Budget;
use tablero::daide::client::{ClientConfig, GameEnd, run_client};
use tablero::daide::codec::{DaideCodec, Frame, Role};
use tablero::daide::message::Message;
use tablero::daide::text::parse_text;
use tablero::daide::token::TokenTable;
use tablero::diplomacy::map::STANDARD_MAP_TEXT;
use tablero::diplomacy::{GameView, Order};
use tokio_util::codec::Framed;

type Server = Framed<tokio::io::DuplexStream, DaideCodec>;

async fn expect(server: &mut Server, want: &str) {
    let t = TokenTable::standard();
    let frame = server.next().await.expect("a frame").expect("valid frame");
    let Frame::Dm(toks) = frame else {
        panic!("expected a DM, got {frame:?}")
    };
    let got = tablero::daide::text::format_tokens(&toks, &t);
    assert_eq!(got, want);
}

async fn say(server: &mut Server, text: &str) {
    let toks = parse_text(text, &TokenTable::standard()).expect("valid text");
    server.send(Frame::Dm(toks)).await.expect("sent");
}

fn holds(view: &GameView, _: Budget) -> Vec<Order> {
    view.units
        .iter()
        .filter(|u| Some(u.power) == view.me)
        .map(|u| Order::Hold(*u))
        .collect()
}

#[tokio::test]
async fn client_plays_a_scripted_game() {
    let (client_io, server_io) = tokio::io::duplex(1 << 16);
    let config = ClientConfig {
        name: "JIC".into(),
        version: "0.1".into(),
        ..ClientConfig::default()
    };
    let client = tokio::spawn(run_client(client_io, config, holds));
    let mut server = Framed::new(server_io, DaideCodec::for_role(Role::Server));

    let im = server.next().await.expect("IM").expect("valid IM");
    assert_eq!(im, Frame::im());
    server
        .send(Frame::Rm(TokenTable::standard()))
        .await
        .expect("RM");
    expect(&mut server, "NME ('JIC') ('0.1')").await;
    say(&mut server, "YES (NME ('JIC') ('0.1'))").await;
    say(&mut server, "MAP ('standard')").await;
    expect(&mut server, "MDF").await;
    let mdf = Message::from_text(STANDARD_MAP_TEXT, &TokenTable::standard()).expect("MDF");
    server
        .send(Frame::Dm(mdf.to_tokens()))
        .await
        .expect("MDF sent");
    expect(&mut server, "YES (MAP ('standard'))").await;
    say(&mut server, "HLO (TUR) (77) ((LVL 0))").await;
    say(
        &mut server,
        "SCO (AUS BUD TRI VIE) (ENG EDI LON LVP) (FRA BRE MAR PAR) (GER BER KIE MUN) \
         (ITA NAP ROM VEN) (RUS MOS SEV STP WAR) (TUR ANK CON SMY) \
         (UNO BEL BUL DEN GRE HOL NWY POR RUM SER SPA SWE TUN)",
    )
    .await;
    say(
        &mut server,
        "NOW (SPR 1901) (AUS AMY VIE) (RUS FLT (STP SCS)) (TUR FLT ANK) (TUR AMY CON) (TUR AMY SMY)",
    )
    .await;
    say(&mut server, "TME (0)").await;
    expect(
        &mut server,
        "SUB ((TUR FLT ANK) HLD) ((TUR AMY CON) HLD) ((TUR AMY SMY) HLD)",
    )
    .await;
    expect(&mut server, "GOF").await;
    say(&mut server, "THX ((TUR FLT ANK) HLD) (MBV)").await;
    say(&mut server, "MIS").await;
    say(&mut server, "YES (GOF)").await;
    say(&mut server, "ORD (SPR 1901) ((TUR FLT ANK) HLD) (SUC)").await;
    say(&mut server, "SLO (TUR)").await;
    say(&mut server, "SMR (SPR 1901) (TUR ('JIC') ('0.1') 18)").await;
    say(&mut server, "OFF").await;
    let fm = server.next().await.expect("FM").expect("valid FM");
    assert_eq!(fm, Frame::Fm);

    let summary = client.await.expect("joined").expect("clean end");
    assert_eq!(summary.phases_ordered, 1);
    assert!(matches!(summary.end, Some(GameEnd::Solo(_))));
    assert!(summary.summary.is_some());
}

#[tokio::test]
async fn client_answers_a_bad_rm_with_an_em() {
    let (client_io, server_io) = tokio::io::duplex(1 << 12);
    let client = tokio::spawn(run_client(client_io, ClientConfig::default(), holds));
    let mut server = Framed::new(server_io, DaideCodec::new());
    let _im = server.next().await;
    // An RM with a command token in it: invalid.
    let mut raw = bytes::BytesMut::new();
    raw.extend_from_slice(&[1, 0, 0, 6, 0x48, 0x00, b'A', b'B', b'C', 0]);
    use tokio::io::AsyncWriteExt;
    let inner = server.get_mut();
    inner.write_all(&raw).await.expect("written");
    let em = server.next().await.expect("EM").expect("valid EM");
    assert!(matches!(em, Frame::Em(_)), "{em:?}");
    assert!(client.await.expect("joined").is_err());
}
