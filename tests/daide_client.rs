//! The DAIDE client driver over an in-memory duplex pipe against a scripted
//! server: IM/RM handshake, NME, MAP/MDF/YES, HLO, SCO, NOW, one SUB + GOF per
//! phase, THX/ORD, SLO/SMR/OFF, and FM on close.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

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
        "SUB (SPR 1901) ((TUR FLT ANK) HLD) ((TUR AMY CON) HLD) ((TUR AMY SMY) HLD)",
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

mod fuzz {
    use proptest::prelude::*;
    use tablero::daide::client::{ClientConfig, ClientEvent, ClientSession};
    use tablero::daide::text::parse_text;
    use tablero::daide::token::{STANDARD_POWERS, STANDARD_PROVINCES, Token, TokenTable};
    use tablero::diplomacy::map::STANDARD_MAP_TEXT;

    const SERVER: &[&str] = &[
        "MAP ('standard')",
        "HLO (%P) (%N) ((LVL 0) (MTL %N))",
        "SCO (%P %X %Y) (%Q %Z) (UNO %Y)",
        "NOW (SPR %N) (%P AMY %X) (%Q FLT %Y)",
        "NOW (SUM %N) (%P AMY %X MRT (%Y %Z)) (%Q AMY %X)",
        "NOW (WIN %N) (%P FLT (%X NCS))",
        "TME (%N)",
        "THX ((%P AMY %X) MTO %Y) (FAR)",
        "THX ((%P AMY %X) HLD) (MBV)",
        "MIS",
        "MIS (%N)",
        "MIS (%P AMY %X)",
        "ORD (FAL %N) ((%P AMY %X) SUP (%Q FLT %Y) MTO %Z) (CUT RET)",
        "ORD (SPR %N) ((%P AMY %X) MTO VIA) (NSO)",
        "CCD (%P)",
        "NOT (CCD (%P))",
        "OUT (%Q)",
        "ADM ('x') ('y')",
        "FRM (%Q) (%P) (PRP (PCE (%P %Q)))",
        "YES (GOF)",
        "REJ (SUB ((%P AMY %X) HLD))",
        "HUH (SUB ERR)",
        "PRN (SUB (",
        "DRW",
        "SLO (%P)",
        "SMR (SPR %N) (%P ('a') ('b') %N)",
        "OFF",
        "MDF (%P %Q) (((%P %X) (UNO %Y)) (%Z)) ((%X (AMY %Y %Z) (FLT %Y)) (%Y (AMY %X)) (%Z (FLT (%X NCS))))",
    ];

    fn instantiate(t: &str, p: usize, q: usize, x: usize, y: usize, z: usize, n: i16) -> String {
        let prov = |i: usize| STANDARD_PROVINCES[i % STANDARD_PROVINCES.len()].0;
        t.replace("%P", STANDARD_POWERS[p % 7].0)
            .replace("%Q", STANDARD_POWERS[q % 7].0)
            .replace("%X", prov(x))
            .replace("%Y", prov(y))
            .replace("%Z", prov(z))
            .replace("%N", &n.to_string())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn random_server_traffic_never_panics_the_client(
            steps in prop::collection::vec(
                (0..SERVER.len(), 0usize..7, 0usize..7, 0usize..75, 0usize..75, 0usize..75, -5i16..3000,
                 prop::option::weighted(0.1, prop::collection::vec(any::<u16>(), 0..10))),
                1..80),
            standard_map in any::<bool>(),
        ) {
            let t = TokenTable::standard();
            let mut s = ClientSession::new(ClientConfig::default());
            s.start();
            if standard_map {
                s.handle_tokens(&parse_text("MAP ('standard')", &t).expect("text"));
                s.handle_tokens(&parse_text(STANDARD_MAP_TEXT, &t).expect("text"));
            }
            for (i, p, q, x, y, z, n, junk) in steps {
                let toks: Vec<Token> = match junk {
                    Some(codes) => codes.into_iter().filter_map(|c| Token::from_code(c).ok()).collect(),
                    None => parse_text(&instantiate(SERVER[i], p, q, x, y, z, n), &t).expect("template parses"),
                };
                for ev in s.handle_tokens(&toks) {
                    if let ClientEvent::OrdersNeeded(view) = ev {
                        // Answer with holds; the session must cope whatever the view.
                        let orders = view
                            .units
                            .iter()
                            .filter(|u| Some(u.power) == view.me)
                            .map(|u| tablero::diplomacy::Order::Hold(*u))
                            .collect();
                        s.submit(view.phase, orders);
                    }
                }
            }
        }
    }
}

/// A server that never answers IAM (as `diplomacy` 1.1.2): the rejoin gives
/// up after `rejoin_timeout` as refused, so a supervisor can join afresh.
#[tokio::test]
async fn an_unanswered_iam_counts_as_refused() {
    use std::time::Duration;
    use tablero::daide::client::{ClientError, Join, run_client_with};
    let (client_io, server_io) = tokio::io::duplex(1 << 16);
    let config = ClientConfig {
        rejoin_timeout: Duration::from_millis(200),
        ..ClientConfig::default()
    };
    let power = TokenTable::standard().power("TUR").expect("TUR");
    let client = tokio::spawn(run_client_with(
        client_io,
        config,
        holds,
        Join::Rejoin {
            power,
            passcode: 1234,
        },
    ));
    let mut server = Framed::new(server_io, DaideCodec::for_role(Role::Server));
    server.next().await.expect("IM").expect("valid IM");
    server
        .send(Frame::Rm(TokenTable::standard()))
        .await
        .expect("RM");
    expect(&mut server, "IAM (TUR) (1234)").await;
    let r = tokio::time::timeout(Duration::from_secs(5), client)
        .await
        .expect("the client gives up")
        .expect("task");
    assert!(matches!(r, Err(ClientError::Refused(_))), "{r:?}");
}
