//! DAIDE: the Diplomacy AI Development Environment client-server protocol.
//!
//! Modules:
//! - [`token`]: 2-byte tokens, the full token table, RM representation tables.
//! - [`codec`]: TCP framing (IM/RM/DM/FM/EM), EM error codes, tokio-util codec.
//! - [`message`]: level-0 message grammar (nom over tokens).
//! - [`text`]: the text form (`SUB ((TUR AMY CON) MTO BUL)`).
//! - [`convert`]: MDF ⇄ map, orders/units/turns ⇄ the game model.
//! - [`client`]: sans-I/O client session + async driver (`run_client`,
//!   `run_client_with` for IAM rejoins) driving a [`crate::diplomacy::Player`].
//! - [`server`]: embedded server (sans-I/O host + TCP drivers `run_game`,
//!   `run_server` for several games at once, `serve_games` for `tablero serve`).
//! - bots (`crate::bots`), bot seats with reconnection
//!   (`crate::daemon::dipbot`), tournaments (`crate::tournament::diplomacy`),
//!   `tablero diplomacy server|bot|play`, interop test against `diplomacy`
//!   1.1.2 (`tests/daide_interop.rs`).
//!
//! What tablero implements is documented in `protocols/daide.md`.
//!
//! Entry points for the CLI and the daemon:
//! - `tablero diplomacy server`: [`server::run_server_with`] with
//!   [`server::ServerConfig::standard`] (set `deadline`, `end_year`, `seed`);
//! - `tablero serve` with `[diplomacy.server]`: [`server::serve_games`] on one
//!   of the daemon's listeners;
//! - `tablero diplomacy bot`: a `TcpStream` into [`client::run_client`] with a
//!   [`crate::diplomacy::Player`]; after [`client::ClientError::Dropped`],
//!   [`client::run_client_with`] and [`client::Join::Rejoin`];
//! - `tablero diplomacy play`: [`crate::diplomacy::play::LocalGame`] (direct
//!   calls) or [`server::run_game`] plus seven clients (over the protocol).

pub mod client;
pub mod codec;
pub mod convert;
pub mod message;
pub mod server;
pub mod text;
pub mod token;
