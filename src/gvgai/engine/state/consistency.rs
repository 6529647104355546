//! Checks of the bookkeeping the engine keeps incrementally, for tests and fuzzing.

use super::GameState;

impl GameState {
    /// Checks the bookkeeping the engine keeps incrementally against the sprites themselves,
    /// between cycles: one group per type, holding sprites of that type; sprite ids unique and
    /// below the next id; the sprite count; no pending kills; the avatar present if recorded;
    /// resources sorted by type and never negative. For tests and fuzzing: the engine keeps
    /// these by construction, so an error names a bug.
    pub fn check_consistency(&self) -> Result<(), String> {
        let types = self.rules.props.len();
        if self.groups.len() != types || self.inert_lag.len() != types {
            return Err(format!(
                "{} groups and {} lags for {types} types",
                self.groups.len(),
                self.inert_lag.len()
            ));
        }
        let mut ids = std::collections::HashSet::new();
        for (t, g) in self.groups.iter().enumerate() {
            for s in g.iter() {
                if usize::from(s.ty) != t {
                    return Err(format!("sprite {} of type {} in group {t}", s.id, s.ty));
                }
                if s.id >= self.next_id || !ids.insert(s.id) {
                    return Err(format!("sprite id {} repeated or not yet issued", s.id));
                }
                if s.killed {
                    return Err(format!("killed sprite {} left in its group", s.id));
                }
                let sorted = s.resources.windows(2).all(|w| w[0].0 < w[1].0);
                if !sorted || s.resources.iter().any(|&(_, v)| v < 0) {
                    return Err(format!("sprite {} resources {:?}", s.id, s.resources));
                }
            }
        }
        if ids.len() != self.num_sprites {
            return Err(format!(
                "{} sprites counted as {}",
                ids.len(),
                self.num_sprites
            ));
        }
        if !self.kill_list.is_empty() {
            return Err(format!("{} kills pending", self.kill_list.len()));
        }
        if self.avatar.is_some() && self.avatar_ref().is_none() {
            return Err(format!("avatar {:?} is not among the sprites", self.avatar));
        }
        Ok(())
    }
}
