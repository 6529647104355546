//! The process shutdown signal: SIGINT or SIGTERM, installed before the daemon reports that it
//! listens, so a signal sent right after start-up is never lost to the default action.

#[cfg(unix)]
pub struct ShutdownSignal {
    interrupt: tokio::signal::unix::Signal,
    terminate: tokio::signal::unix::Signal,
}

#[cfg(unix)]
impl ShutdownSignal {
    /// Registers the handlers now (inside a tokio runtime).
    pub fn install() -> std::io::Result<ShutdownSignal> {
        use tokio::signal::unix::{SignalKind, signal};
        Ok(ShutdownSignal {
            interrupt: signal(SignalKind::interrupt())?,
            terminate: signal(SignalKind::terminate())?,
        })
    }

    /// Resolves at the first SIGINT or SIGTERM, with the signal's name.
    pub async fn recv(mut self) -> &'static str {
        tokio::select! {
            _ = self.interrupt.recv() => "SIGINT",
            _ = self.terminate.recv() => "SIGTERM",
        }
    }
}

#[cfg(not(unix))]
pub struct ShutdownSignal(());

#[cfg(not(unix))]
impl ShutdownSignal {
    pub fn install() -> std::io::Result<ShutdownSignal> {
        Ok(ShutdownSignal(()))
    }

    pub async fn recv(self) -> &'static str {
        match tokio::signal::ctrl_c().await {
            Ok(()) => "Ctrl-C",
            Err(_) => std::future::pending().await,
        }
    }
}
