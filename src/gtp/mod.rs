//! GTP v2 (placeholder, being written).
