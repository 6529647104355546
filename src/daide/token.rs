//! DAIDE 2-byte tokens: the full token table, a typed [`Token`], and the
//! representation table ([`TokenTable`]) that names power and province tokens.
//!
//! A token on the wire is `category << 8 | value` (big-endian). Every category
//! except powers (0x41) and provinces (0x50–0x57) has a fixed meaning and is a
//! closed Rust enum here. Power and province tokens are carried as raw codes
//! ([`PowerToken`], [`ProvinceToken`]); their *names* come from a [`TokenTable`],
//! which is the standard table unless the server sent a non-empty RM, in which
//! case the RM *replaces* every power and province token. Nothing here assumes
//! a power order or adjacency: that comes from the RM and the MDF.
//!
//! Press tokens (0x4A) are accepted with any value; names are given for the
//! values the `diplomacy` 1.1.2 server uses, since implementations disagree
//! beyond level 0. Unnamed tokens print as `#XXXX` (hex) in the text form.

use std::fmt;

use thiserror::Error;

/// Category byte of the bracket tokens.
pub const CAT_BRACKET: u8 = 0x40;
/// Category byte of power tokens.
pub const CAT_POWER: u8 = 0x41;
/// Category byte of unit-type tokens.
pub const CAT_UNIT: u8 = 0x42;
/// Category byte of order tokens.
pub const CAT_ORDER: u8 = 0x43;
/// Category byte of THX order notes.
pub const CAT_NOTE: u8 = 0x44;
/// Category byte of ORD results.
pub const CAT_RESULT: u8 = 0x45;
/// Category byte of coast tokens.
pub const CAT_COAST: u8 = 0x46;
/// Category byte of phase (season) tokens.
pub const CAT_PHASE: u8 = 0x47;
/// Category byte of commands.
pub const CAT_COMMAND: u8 = 0x48;
/// Category byte of parameters.
pub const CAT_PARAM: u8 = 0x49;
/// Category byte of press tokens (level ≥ 10).
pub const CAT_PRESS: u8 = 0x4A;
/// Category byte of text (one ASCII byte per token).
pub const CAT_TEXT: u8 = 0x4B;
/// First province category byte (inland, non-SC).
pub const CAT_PROVINCE_FIRST: u8 = 0x50;
/// Last province category byte (bicoastal SC).
pub const CAT_PROVINCE_LAST: u8 = 0x57;

/// Smallest integer a token can carry.
pub const INT_MIN: i16 = -8192;
/// Largest integer a token can carry.
pub const INT_MAX: i16 = 8191;

/// Errors about single tokens and representation tables.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TokenError {
    /// The 16-bit code is not a token (unknown category or value).
    #[error("invalid token 0x{0:04X}")]
    Invalid(u16),
    /// A power or province token the current representation does not define.
    #[error("token 0x{0:04X} is not defined by the current representation message")]
    Undefined(u16),
    /// An integer outside −8192…8191.
    #[error("integer {0} does not fit in a token (-8192..=8191)")]
    IntOutOfRange(i32),
    /// An RM payload whose length is not a multiple of 6.
    #[error("RM payload length {0} is not a multiple of 6")]
    RmLength(usize),
    /// An RM entry whose token is neither a power nor a province.
    #[error("RM entry {index}: token 0x{code:04X} is neither a power nor a province")]
    RmCategory { index: usize, code: u16 },
    /// An RM entry whose name is not 3 ASCII letters/digits followed by NUL.
    #[error("RM entry {index}: bad name bytes {bytes:?}")]
    RmName { index: usize, bytes: [u8; 4] },
    /// An RM entry repeating a code or a name, or reusing a fixed token's name.
    #[error("RM entry {index}: duplicate or reserved name/code {name} (0x{code:04X})")]
    RmDuplicate {
        index: usize,
        code: u16,
        name: String,
    },
}

macro_rules! token_enum {
    ($(#[$meta:meta])* $name:ident, $cat:expr, { $($var:ident = $val:literal => $s:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name { $($var),+ }

        impl $name {
            /// Every variant, in table order.
            pub const ALL: &'static [$name] = &[$($name::$var),+];
            /// Category byte of this token kind.
            pub const CATEGORY: u8 = $cat;
            /// The low byte of the token.
            pub const fn value(self) -> u8 { match self { $($name::$var => $val),+ } }
            /// The full 16-bit token code.
            pub const fn code(self) -> u16 { (($cat as u16) << 8) | self.value() as u16 }
            /// The 3-letter DAIDE name.
            pub const fn name(self) -> &'static str { match self { $($name::$var => $s),+ } }
            /// Looks a variant up by its low byte.
            pub fn from_value(v: u8) -> Option<Self> { match v { $($val => Some($name::$var),)+ _ => None } }
            /// Looks a variant up by its DAIDE name (upper case).
            pub fn from_name(s: &str) -> Option<Self> { match s { $($s => Some($name::$var),)+ _ => None } }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { f.write_str(self.name()) }
        }
    };
}

token_enum!(
    /// Unit types (category 0x42).
    UnitKind, CAT_UNIT, { Amy = 0x00 => "AMY", Flt = 0x01 => "FLT" });

token_enum!(
    /// Order tokens (category 0x43).
    OrderToken, CAT_ORDER, {
    Cto = 0x20 => "CTO", Cvy = 0x21 => "CVY", Hld = 0x22 => "HLD", Mto = 0x23 => "MTO",
    Sup = 0x24 => "SUP", Via = 0x25 => "VIA", Dsb = 0x40 => "DSB", Rto = 0x41 => "RTO",
    Bld = 0x80 => "BLD", Rem = 0x81 => "REM", Wve = 0x82 => "WVE",
});

token_enum!(
    /// THX order notes (category 0x44).
    ThxNote, CAT_NOTE, {
    Mbv = 0x00 => "MBV", Bpr = 0x01 => "BPR", Cst = 0x02 => "CST", Esc = 0x03 => "ESC",
    Far = 0x04 => "FAR", Hsc = 0x05 => "HSC", Nas = 0x06 => "NAS", Nmb = 0x07 => "NMB",
    Nmr = 0x08 => "NMR", Nrn = 0x09 => "NRN", Nrs = 0x0A => "NRS", Nsa = 0x0B => "NSA",
    Nsc = 0x0C => "NSC", Nsf = 0x0D => "NSF", Nsp = 0x0E => "NSP", Nsu = 0x10 => "NSU",
    Nvr = 0x11 => "NVR", Nyu = 0x12 => "NYU", Ysc = 0x13 => "YSC",
});

token_enum!(
    /// ORD results (category 0x45).
    OrdResult, CAT_RESULT, {
    Suc = 0x00 => "SUC", Bnc = 0x01 => "BNC", Cut = 0x02 => "CUT", Dsr = 0x03 => "DSR",
    Fld = 0x04 => "FLD", Nso = 0x05 => "NSO", Ret = 0x06 => "RET",
});

token_enum!(
    /// Coasts (category 0x46).
    CoastToken, CAT_COAST, {
    Ncs = 0x00 => "NCS", Nec = 0x02 => "NEC", Ecs = 0x04 => "ECS", Sec = 0x06 => "SEC",
    Scs = 0x08 => "SCS", Swc = 0x0A => "SWC", Wcs = 0x0C => "WCS", Nwc = 0x0E => "NWC",
});

token_enum!(
    /// Phases / seasons (category 0x47).
    PhaseToken, CAT_PHASE, {
    Spr = 0x00 => "SPR", Sum = 0x01 => "SUM", Fal = 0x02 => "FAL", Aut = 0x03 => "AUT",
    Win = 0x04 => "WIN",
});

token_enum!(
    /// Commands (category 0x48).
    Command, CAT_COMMAND, {
    Ccd = 0x00 => "CCD", Drw = 0x01 => "DRW", Frm = 0x02 => "FRM", Gof = 0x03 => "GOF",
    Hlo = 0x04 => "HLO", Hst = 0x05 => "HST", Huh = 0x06 => "HUH", Iam = 0x07 => "IAM",
    Lod = 0x08 => "LOD", Map = 0x09 => "MAP", Mdf = 0x0A => "MDF", Mis = 0x0B => "MIS",
    Nme = 0x0C => "NME", Not = 0x0D => "NOT", Now = 0x0E => "NOW", Obs = 0x0F => "OBS",
    Off = 0x10 => "OFF", Ord = 0x11 => "ORD", Out = 0x12 => "OUT", Prn = 0x13 => "PRN",
    Rej = 0x14 => "REJ", Sco = 0x15 => "SCO", Slo = 0x16 => "SLO", Snd = 0x17 => "SND",
    Sub = 0x18 => "SUB", Sve = 0x19 => "SVE", Thx = 0x1A => "THX", Tme = 0x1B => "TME",
    Yes = 0x1C => "YES", Adm = 0x1D => "ADM", Smr = 0x1E => "SMR",
});

token_enum!(
    /// Parameters (category 0x49).
    Param, CAT_PARAM, {
    Aoa = 0x00 => "AOA", Btl = 0x01 => "BTL", Err = 0x02 => "ERR", Lvl = 0x03 => "LVL",
    Mrt = 0x04 => "MRT", Mtl = 0x05 => "MTL", Npb = 0x06 => "NPB", Npr = 0x07 => "NPR",
    Pda = 0x08 => "PDA", Ptl = 0x09 => "PTL", Rtl = 0x0A => "RTL", Uno = 0x0B => "UNO",
    Dsd = 0x0D => "DSD",
});

token_enum!(
    /// Press tokens (category 0x4A) as the `diplomacy` 1.1.2 server numbers them.
    /// Other implementations disagree on some values; only names are offered,
    /// the wire carries [`PressToken`] with any value.
    PressName, CAT_PRESS, {
    Aly = 0x00 => "ALY", And = 0x01 => "AND", Bwx = 0x02 => "BWX", Dmz = 0x03 => "DMZ",
    Els = 0x04 => "ELS", Exp = 0x05 => "EXP", Fct = 0x06 => "FCT", For = 0x07 => "FOR",
    Fwd = 0x08 => "FWD", How = 0x09 => "HOW", Idk = 0x0A => "IDK", Iff = 0x0B => "IFF",
    Ins = 0x0C => "INS", Occ = 0x0E => "OCC", Orr = 0x0F => "ORR", Pce = 0x10 => "PCE",
    Pob = 0x11 => "POB", Prp = 0x13 => "PRP", Qry = 0x14 => "QRY", Scd = 0x15 => "SCD",
    Sry = 0x16 => "SRY", Sug = 0x17 => "SUG", Thk = 0x18 => "THK", Thn = 0x19 => "THN",
    Try = 0x1A => "TRY", Vss = 0x1C => "VSS", Wht = 0x1D => "WHT", Why = 0x1E => "WHY",
    Xdo = 0x1F => "XDO", Xoy = 0x20 => "XOY", Ydo = 0x21 => "YDO", Cho = 0x22 => "CHO",
    Bcc = 0x23 => "BCC", Unt = 0x24 => "UNT", Nar = 0x25 => "NAR", Ccl = 0x26 => "CCL",
});

/// A power token: the low byte of a category-0x41 code. Its name comes from the
/// [`TokenTable`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PowerToken(pub u8);

impl PowerToken {
    /// The full 16-bit token code.
    pub const fn code(self) -> u16 {
        ((CAT_POWER as u16) << 8) | self.0 as u16
    }
}

/// What kind of province a province token's category says it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProvinceKind {
    /// Land with no coast.
    Inland,
    /// Water.
    Sea,
    /// Land with one coast.
    Coastal,
    /// Land with two named coasts.
    Bicoastal,
}

/// A province token: a full code with category 0x50–0x57. Bit 0 of the category
/// marks a supply centre; bits 1–2 the [`ProvinceKind`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProvinceToken(u16);

impl ProvinceToken {
    /// Builds a province token from a full code, if its category is a province one.
    pub const fn from_code(code: u16) -> Option<Self> {
        let cat = (code >> 8) as u8;
        if cat >= CAT_PROVINCE_FIRST && cat <= CAT_PROVINCE_LAST {
            Some(ProvinceToken(code))
        } else {
            None
        }
    }
    /// The full 16-bit token code.
    pub const fn code(self) -> u16 {
        self.0
    }
    /// Whether the category marks the province as a supply centre.
    pub const fn is_supply_centre(self) -> bool {
        (self.0 >> 8) & 1 == 1
    }
    /// The kind the category gives the province.
    pub const fn kind(self) -> ProvinceKind {
        match ((self.0 >> 8) >> 1) & 3 {
            0 => ProvinceKind::Inland,
            1 => ProvinceKind::Sea,
            2 => ProvinceKind::Coastal,
            _ => ProvinceKind::Bicoastal,
        }
    }
}

/// A press token (category 0x4A), with any value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PressToken(pub u8);

impl PressToken {
    /// The name `diplomacy` 1.1.2 uses for this value, if any.
    pub fn name(self) -> Option<&'static str> {
        PressName::from_value(self.0).map(PressName::name)
    }
}

/// One DAIDE token, typed by category.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Token {
    /// A 14-bit signed integer (−8192…8191).
    Int(i16),
    /// `(`
    Bra,
    /// `)`
    Ket,
    /// A power (named by the [`TokenTable`]).
    Power(PowerToken),
    /// AMY / FLT.
    Unit(UnitKind),
    /// An order token.
    Order(OrderToken),
    /// A THX note.
    Note(ThxNote),
    /// An ORD result.
    Result(OrdResult),
    /// A coast.
    Coast(CoastToken),
    /// A phase.
    Phase(PhaseToken),
    /// A command.
    Command(Command),
    /// A parameter.
    Param(Param),
    /// A press token.
    Press(PressToken),
    /// One ASCII byte of text.
    Text(u8),
    /// A province (named by the [`TokenTable`]).
    Province(ProvinceToken),
}

impl From<Command> for Token {
    fn from(c: Command) -> Self {
        Token::Command(c)
    }
}
impl From<Param> for Token {
    fn from(p: Param) -> Self {
        Token::Param(p)
    }
}
impl From<OrderToken> for Token {
    fn from(o: OrderToken) -> Self {
        Token::Order(o)
    }
}

impl Token {
    /// Decodes a 16-bit code, independent of any representation table.
    /// Power and province codes are accepted structurally; check them against
    /// a [`TokenTable`] with [`TokenTable::check`].
    pub fn from_code(code: u16) -> Result<Token, TokenError> {
        let [cat, val] = code.to_be_bytes();
        let bad = TokenError::Invalid(code);
        Ok(match cat {
            0x00..=0x3F => {
                let raw = code & 0x3FFF;
                let v = if raw & 0x2000 != 0 {
                    raw as i32 - 0x4000
                } else {
                    raw as i32
                };
                // In range by construction (14 bits).
                Token::Int(v as i16)
            }
            CAT_BRACKET => match val {
                0 => Token::Bra,
                1 => Token::Ket,
                _ => return Err(bad),
            },
            CAT_POWER => Token::Power(PowerToken(val)),
            CAT_UNIT => Token::Unit(UnitKind::from_value(val).ok_or(bad)?),
            CAT_ORDER => Token::Order(OrderToken::from_value(val).ok_or(bad)?),
            CAT_NOTE => Token::Note(ThxNote::from_value(val).ok_or(bad)?),
            CAT_RESULT => Token::Result(OrdResult::from_value(val).ok_or(bad)?),
            CAT_COAST => Token::Coast(CoastToken::from_value(val).ok_or(bad)?),
            CAT_PHASE => Token::Phase(PhaseToken::from_value(val).ok_or(bad)?),
            CAT_COMMAND => Token::Command(Command::from_value(val).ok_or(bad)?),
            CAT_PARAM => Token::Param(Param::from_value(val).ok_or(bad)?),
            CAT_PRESS => Token::Press(PressToken(val)),
            CAT_TEXT => Token::Text(val),
            CAT_PROVINCE_FIRST..=CAT_PROVINCE_LAST => Token::Province(ProvinceToken(code)),
            _ => return Err(bad),
        })
    }

    /// The 16-bit wire code.
    pub fn code(self) -> u16 {
        match self {
            Token::Int(v) => (v as u16) & 0x3FFF,
            Token::Bra => (CAT_BRACKET as u16) << 8,
            Token::Ket => ((CAT_BRACKET as u16) << 8) | 1,
            Token::Power(p) => p.code(),
            Token::Unit(t) => t.code(),
            Token::Order(t) => t.code(),
            Token::Note(t) => t.code(),
            Token::Result(t) => t.code(),
            Token::Coast(t) => t.code(),
            Token::Phase(t) => t.code(),
            Token::Command(t) => t.code(),
            Token::Param(t) => t.code(),
            Token::Press(p) => ((CAT_PRESS as u16) << 8) | p.0 as u16,
            Token::Text(b) => ((CAT_TEXT as u16) << 8) | b as u16,
            Token::Province(p) => p.code(),
        }
    }

    /// An integer token, checking the range.
    pub fn int(v: i32) -> Result<Token, TokenError> {
        if (INT_MIN as i32..=INT_MAX as i32).contains(&v) {
            Ok(Token::Int(v as i16))
        } else {
            Err(TokenError::IntOutOfRange(v))
        }
    }

    /// The name of a fixed (table-independent) token, if it has one.
    pub fn fixed_name(self) -> Option<&'static str> {
        match self {
            Token::Bra => Some("BRA"),
            Token::Ket => Some("KET"),
            Token::Unit(t) => Some(t.name()),
            Token::Order(t) => Some(t.name()),
            Token::Note(t) => Some(t.name()),
            Token::Result(t) => Some(t.name()),
            Token::Coast(t) => Some(t.name()),
            Token::Phase(t) => Some(t.name()),
            Token::Command(t) => Some(t.name()),
            Token::Param(t) => Some(t.name()),
            Token::Press(p) => p.name(),
            _ => None,
        }
    }

    /// Looks up a fixed (table-independent) token by its 3-letter name.
    pub fn from_fixed_name(s: &str) -> Option<Token> {
        let key = name_key(s.as_bytes())?;
        let table = fixed_names();
        let at = table.binary_search_by_key(&key, |&(k, _)| k).ok()?;
        Some(table[at].1)
    }
}

/// A 3-byte name as one number (fixed names are all three letters).
fn name_key(name: &[u8]) -> Option<u32> {
    match *name {
        [a, b, c] => Some(u32::from_be_bytes([0, a, b, c])),
        _ => None,
    }
}

/// Every fixed token by its name's [`name_key`], sorted: built once, searched by bisection
/// (a decoder looks up every word it reads).
fn fixed_names() -> &'static [(u32, Token)] {
    static TABLE: std::sync::OnceLock<Vec<(u32, Token)>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let presses = (0..=u8::MAX).map(|v| Token::Press(PressToken(v)));
        let mut table: Vec<(u32, Token)> = [Token::Bra, Token::Ket]
            .into_iter()
            .chain(Command::ALL.iter().map(|&t| Token::Command(t)))
            .chain(OrderToken::ALL.iter().map(|&t| Token::Order(t)))
            .chain(Param::ALL.iter().map(|&t| Token::Param(t)))
            .chain(UnitKind::ALL.iter().map(|&t| Token::Unit(t)))
            .chain(PhaseToken::ALL.iter().map(|&t| Token::Phase(t)))
            .chain(CoastToken::ALL.iter().map(|&t| Token::Coast(t)))
            .chain(ThxNote::ALL.iter().map(|&t| Token::Note(t)))
            .chain(OrdResult::ALL.iter().map(|&t| Token::Result(t)))
            .chain(presses)
            .filter_map(|t| Some((name_key(t.fixed_name()?.as_bytes())?, t)))
            .collect();
        table.sort_by_key(|&(key, _)| key);
        table
    })
}

/// A 3-character token name from a representation table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Name([u8; 3]);

impl Name {
    /// Builds a name from 3 ASCII alphanumeric characters (stored upper case).
    pub fn new(s: &str) -> Option<Name> {
        let b = s.as_bytes();
        if b.len() != 3 || !b.iter().all(u8::is_ascii_alphanumeric) {
            return None;
        }
        Some(Name([
            b[0].to_ascii_uppercase(),
            b[1].to_ascii_uppercase(),
            b[2].to_ascii_uppercase(),
        ]))
    }
    /// The name as a string.
    pub fn as_str(&self) -> &str {
        // Only ASCII alphanumerics are ever stored.
        std::str::from_utf8(&self.0).unwrap_or("???")
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The standard power tokens, in standard table order.
pub const STANDARD_POWERS: [(&str, u8); 7] = [
    ("AUS", 0x00),
    ("ENG", 0x01),
    ("FRA", 0x02),
    ("GER", 0x03),
    ("ITA", 0x04),
    ("RUS", 0x05),
    ("TUR", 0x06),
];

/// The 75 standard province tokens (name, full code).
pub const STANDARD_PROVINCES: [(&str, u16); 75] = [
    ("BOH", 0x5000),
    ("BUR", 0x5001),
    ("GAL", 0x5002),
    ("RUH", 0x5003),
    ("SIL", 0x5004),
    ("TYR", 0x5005),
    ("UKR", 0x5006),
    ("BUD", 0x5107),
    ("MOS", 0x5108),
    ("MUN", 0x5109),
    ("PAR", 0x510A),
    ("SER", 0x510B),
    ("VIE", 0x510C),
    ("WAR", 0x510D),
    ("ADR", 0x520E),
    ("AEG", 0x520F),
    ("BAL", 0x5210),
    ("BAR", 0x5211),
    ("BLA", 0x5212),
    ("EAS", 0x5213),
    ("ECH", 0x5214),
    ("GOB", 0x5215),
    ("GOL", 0x5216),
    ("HEL", 0x5217),
    ("ION", 0x5218),
    ("IRI", 0x5219),
    ("MAO", 0x521A),
    ("NAO", 0x521B),
    ("NTH", 0x521C),
    ("NWG", 0x521D),
    ("SKA", 0x521E),
    ("TYS", 0x521F),
    ("WES", 0x5220),
    ("ALB", 0x5421),
    ("APU", 0x5422),
    ("ARM", 0x5423),
    ("CLY", 0x5424),
    ("FIN", 0x5425),
    ("GAS", 0x5426),
    ("LVN", 0x5427),
    ("NAF", 0x5428),
    ("PIC", 0x5429),
    ("PIE", 0x542A),
    ("PRU", 0x542B),
    ("SYR", 0x542C),
    ("TUS", 0x542D),
    ("WAL", 0x542E),
    ("YOR", 0x542F),
    ("ANK", 0x5530),
    ("BEL", 0x5531),
    ("BER", 0x5532),
    ("BRE", 0x5533),
    ("CON", 0x5534),
    ("DEN", 0x5535),
    ("EDI", 0x5536),
    ("GRE", 0x5537),
    ("HOL", 0x5538),
    ("KIE", 0x5539),
    ("LON", 0x553A),
    ("LVP", 0x553B),
    ("MAR", 0x553C),
    ("NAP", 0x553D),
    ("NWY", 0x553E),
    ("POR", 0x553F),
    ("ROM", 0x5540),
    ("RUM", 0x5541),
    ("SEV", 0x5542),
    ("SMY", 0x5543),
    ("SWE", 0x5544),
    ("TRI", 0x5545),
    ("TUN", 0x5546),
    ("VEN", 0x5547),
    ("BUL", 0x5748),
    ("SPA", 0x5749),
    ("STP", 0x574A),
];

/// The representation table: names for power and province tokens.
///
/// [`TokenTable::standard`] is the default (an empty RM); [`TokenTable::from_rm`]
/// builds one from a non-empty RM payload, which replaces all power and province
/// tokens (none of the standard ones survive).
///
/// Lookups both ways are one array read: a decoder checks every power and province
/// token it reads, and a text parser looks up every word. The arrays are shared by
/// clones.
#[derive(Clone)]
pub struct TokenTable {
    /// Entries in RM order (powers and provinces interleaved as sent).
    entries: Vec<(u16, Name)>,
    lookup: std::sync::Arc<Lookup>,
}

/// Number of 3-character names: each character is one of `0-9A-Z`.
const NAME_SLOTS: usize = 36 * 36 * 36;
/// Number of power and province codes: the power category and eight province categories.
const CODE_SLOTS: usize = 9 * 256;

/// The direct-index arrays of a [`TokenTable`].
struct Lookup {
    /// Code of every name, fixed tokens included, by [`name_slot`]; 0 (an integer, which
    /// has no name) where none.
    by_name: Box<[u16]>,
    /// Name of every power and province code, by [`code_slot`].
    by_code: Box<[Option<Name>]>,
}

/// The slot of a name in [`Lookup::by_name`]: its characters as base-36 digits, upper and
/// lower case alike; `None` for anything but three ASCII alphanumerics.
fn name_slot(name: &[u8]) -> Option<usize> {
    let [a, b, c] = *name else { return None };
    let digit = |x: u8| match x.to_ascii_uppercase() {
        d @ b'0'..=b'9' => Some(usize::from(d - b'0')),
        l @ b'A'..=b'Z' => Some(usize::from(l - b'A') + 10),
        _ => None,
    };
    Some((digit(a)? * 36 + digit(b)?) * 36 + digit(c)?)
}

/// The slot of a power or province code in [`Lookup::by_code`].
fn code_slot(code: u16) -> Option<usize> {
    let [cat, v] = code.to_be_bytes();
    let block = match cat {
        CAT_POWER => 0,
        CAT_PROVINCE_FIRST..=CAT_PROVINCE_LAST => usize::from(cat - CAT_PROVINCE_FIRST) + 1,
        _ => return None,
    };
    Some(block * 256 + usize::from(v))
}

impl Lookup {
    fn new(entries: &[(u16, Name)]) -> Lookup {
        let mut by_name = vec![0u16; NAME_SLOTS].into_boxed_slice();
        let mut by_code = vec![None; CODE_SLOTS].into_boxed_slice();
        let fixed = fixed_names()
            .iter()
            .map(|&(key, t)| (key.to_be_bytes(), t.code()))
            .map(|([_, a, b, c], code)| ([a, b, c], code));
        let named = entries.iter().map(|&(code, name)| (name.0, code));
        for (name, code) in fixed.chain(named) {
            if let Some(slot) = name_slot(&name) {
                by_name[slot] = code;
            }
        }
        for &(code, name) in entries {
            if let Some(slot) = code_slot(code) {
                by_code[slot] = Some(name);
            }
        }
        Lookup { by_name, by_code }
    }
}

impl PartialEq for TokenTable {
    fn eq(&self, other: &Self) -> bool {
        // The lookup arrays are a function of the entries.
        self.entries == other.entries
    }
}

impl Eq for TokenTable {}

impl fmt::Debug for TokenTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TokenTable")
            .field("entries", &self.entries)
            .finish_non_exhaustive()
    }
}

impl Default for TokenTable {
    fn default() -> Self {
        Self::standard()
    }
}

impl TokenTable {
    /// The standard table (7 powers, 75 provinces).
    pub fn standard() -> TokenTable {
        static STANDARD: std::sync::OnceLock<TokenTable> = std::sync::OnceLock::new();
        STANDARD.get_or_init(Self::build_standard).clone()
    }

    fn build_standard() -> TokenTable {
        let entries = STANDARD_POWERS
            .iter()
            .map(|&(n, v)| (PowerToken(v).code(), n))
            .chain(STANDARD_PROVINCES.iter().map(|&(n, c)| (c, n)))
            .filter_map(|(c, n)| Name::new(n).map(|n| (c, n)));
        Self::build(entries.collect())
    }

    fn build(entries: Vec<(u16, Name)>) -> TokenTable {
        let lookup = std::sync::Arc::new(Lookup::new(&entries));
        TokenTable { entries, lookup }
    }

    /// The code named `name` (a fixed or a table name), if any.
    fn code_named(&self, name: &str) -> Option<u16> {
        let code = self.lookup.by_name[name_slot(name.as_bytes())?];
        (code != 0).then_some(code)
    }

    /// The table name of a power or province code.
    fn name_of_code(&self, code: u16) -> Option<Name> {
        self.lookup.by_code[code_slot(code)?]
    }

    /// Parses an RM payload. An empty payload yields the standard table.
    pub fn from_rm(payload: &[u8]) -> Result<TokenTable, TokenError> {
        if payload.is_empty() {
            return Ok(Self::standard());
        }
        if payload.len() % 6 != 0 {
            return Err(TokenError::RmLength(payload.len()));
        }
        let mut entries: Vec<(u16, Name)> = Vec::with_capacity(payload.len() / 6);
        let mut codes = std::collections::HashSet::new();
        let mut names = std::collections::HashSet::new();
        for (index, chunk) in payload.chunks_exact(6).enumerate() {
            let code = u16::from_be_bytes([chunk[0], chunk[1]]);
            let cat = chunk[0];
            if cat != CAT_POWER && !(CAT_PROVINCE_FIRST..=CAT_PROVINCE_LAST).contains(&cat) {
                return Err(TokenError::RmCategory { index, code });
            }
            let bytes = [chunk[2], chunk[3], chunk[4], chunk[5]];
            let name = std::str::from_utf8(&chunk[2..5])
                .ok()
                .and_then(Name::new)
                .filter(|_| chunk[5] == 0)
                .ok_or(TokenError::RmName { index, bytes })?;
            if !codes.insert(code)
                || !names.insert(name)
                || Token::from_fixed_name(name.as_str()).is_some()
            {
                return Err(TokenError::RmDuplicate {
                    index,
                    code,
                    name: name.to_string(),
                });
            }
            entries.push((code, name));
        }
        Ok(Self::build(entries))
    }

    /// Encodes the table as an RM payload (6 bytes per entry).
    pub fn to_rm(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.entries.len() * 6);
        for (code, name) in &self.entries {
            out.extend_from_slice(&code.to_be_bytes());
            out.extend_from_slice(&name.0);
            out.push(0);
        }
        out
    }

    /// Whether this is exactly the standard table.
    pub fn is_standard(&self) -> bool {
        *self == Self::standard()
    }

    /// The power tokens, in table order (the RM's order, or standard order).
    pub fn powers(&self) -> impl Iterator<Item = (PowerToken, Name)> + '_ {
        self.entries.iter().filter_map(|&(c, n)| {
            let [cat, v] = c.to_be_bytes();
            (cat == CAT_POWER).then_some((PowerToken(v), n))
        })
    }

    /// The province tokens, in table order.
    pub fn provinces(&self) -> impl Iterator<Item = (ProvinceToken, Name)> + '_ {
        self.entries
            .iter()
            .filter_map(|&(c, n)| ProvinceToken::from_code(c).map(|p| (p, n)))
    }

    /// The name of a power token.
    pub fn power_name(&self, p: PowerToken) -> Option<Name> {
        self.name_of_code(p.code())
    }

    /// The name of a province token.
    pub fn province_name(&self, p: ProvinceToken) -> Option<Name> {
        self.name_of_code(p.code())
    }

    /// The power token called `name`.
    pub fn power(&self, name: &str) -> Option<PowerToken> {
        let [cat, v] = self.code_named(name)?.to_be_bytes();
        (cat == CAT_POWER).then_some(PowerToken(v))
    }

    /// The province token called `name`.
    pub fn province(&self, name: &str) -> Option<ProvinceToken> {
        ProvinceToken::from_code(self.code_named(name)?)
    }

    /// Checks that a power/province token is defined by this table; all other
    /// tokens pass.
    pub fn check(&self, t: Token) -> Result<(), TokenError> {
        match t {
            Token::Power(_) | Token::Province(_) if self.name_of_code(t.code()).is_none() => {
                Err(TokenError::Undefined(t.code()))
            }
            _ => Ok(()),
        }
    }

    /// Decodes a wire code and checks it against this table.
    pub fn decode(&self, code: u16) -> Result<Token, TokenError> {
        let t = Token::from_code(code)?;
        self.check(t)?;
        Ok(t)
    }

    /// The display name of one token (not for integers or text).
    pub fn name_of(&self, t: Token) -> Option<String> {
        match t {
            Token::Power(p) => self.power_name(p).map(|n| n.to_string()),
            Token::Province(p) => self.province_name(p).map(|n| n.to_string()),
            other => other.fixed_name().map(str::to_string),
        }
    }

    /// Looks up a 3-letter name, in any case: a fixed token or a table name.
    pub fn token_by_name(&self, name: &str) -> Option<Token> {
        Token::from_code(self.code_named(name)?).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_round_trip_and_match_spec_examples() {
        assert_eq!(Token::Int(1901).code(), 0x076D);
        assert_eq!(Token::from_code(0x076D), Ok(Token::Int(1901)));
        assert_eq!(Token::Int(-1).code(), 0x3FFF);
        assert_eq!(Token::from_code(0x3FFF), Ok(Token::Int(-1)));
        assert_eq!(Token::from_code(0x2000), Ok(Token::Int(-8192)));
        assert_eq!(Token::from_code(0x1FFF), Ok(Token::Int(8191)));
        for v in [-8192, -1, 0, 1, 8191] {
            let t = Token::int(v).unwrap();
            assert_eq!(Token::from_code(t.code()), Ok(t));
        }
        assert!(Token::int(8192).is_err());
        assert!(Token::int(-8193).is_err());
    }

    #[test]
    fn every_code_decodes_or_errors_and_round_trips() {
        let mut valid = 0;
        for code in 0..=u16::MAX {
            if let Ok(t) = Token::from_code(code) {
                assert_eq!(t.code(), code, "{t:?}");
                valid += 1;
            }
        }
        // 16384 ints + 2 brackets + 256 powers + 2 units + 11 orders + 19 notes
        // + 7 results + 8 coasts + 5 phases + 31 commands + 13 params + 256 press
        // + 256 text + 8*256 provinces.
        assert_eq!(
            valid,
            16384 + 2 + 256 + 2 + 11 + 19 + 7 + 8 + 5 + 31 + 13 + 256 + 256 + 2048
        );
    }

    #[test]
    fn standard_table_matches_reference_examples() {
        let t = TokenTable::standard();
        assert_eq!(t.province("STP").unwrap().code(), 0x574A);
        assert_eq!(t.province("NTH").unwrap().code(), 0x521C);
        assert_eq!(t.province("bud").unwrap().code(), 0x5107);
        assert_eq!(t.power("TUR"), Some(PowerToken(6)));
        assert_eq!(t.provinces().count(), 75);
        assert_eq!(t.powers().count(), 7);
        assert_eq!(
            t.provinces().filter(|(p, _)| p.is_supply_centre()).count(),
            34
        );
        let stp = t.province("STP").unwrap();
        assert_eq!(stp.kind(), ProvinceKind::Bicoastal);
        assert_eq!(t.province("NTH").unwrap().kind(), ProvinceKind::Sea);
        assert_eq!(t.province("BOH").unwrap().kind(), ProvinceKind::Inland);
        assert_eq!(t.province("YOR").unwrap().kind(), ProvinceKind::Coastal);
        assert_eq!(t.token_by_name("mto"), Some(Token::Order(OrderToken::Mto)));
        assert_eq!(t.token_by_name("UNO"), Some(Token::Param(Param::Uno)));
    }

    #[test]
    fn standard_rm_round_trips() {
        let t = TokenTable::standard();
        let rm = t.to_rm();
        assert_eq!(rm.len(), 82 * 6);
        let back = TokenTable::from_rm(&rm).unwrap();
        assert_eq!(back, t);
        assert!(back.is_standard());
        assert!(TokenTable::from_rm(&[]).unwrap().is_standard());
    }

    #[test]
    fn non_empty_rm_replaces_powers_and_provinces() {
        // A two-power variant whose tokens are not the standard ones.
        let mut rm = Vec::new();
        for (code, name) in [
            (0x4100u16, b"NOR"),
            (0x4101, b"SOU"),
            (0x5500, b"AAA"),
            (0x5201, b"SEA"),
        ] {
            rm.extend_from_slice(&code.to_be_bytes());
            rm.extend_from_slice(name);
            rm.push(0);
        }
        let t = TokenTable::from_rm(&rm).unwrap();
        assert_eq!(t.power("NOR"), Some(PowerToken(0)));
        assert_eq!(t.power("AUS"), None);
        assert_eq!(t.province("LON"), None);
        assert_eq!(t.province("AAA").unwrap().code(), 0x5500);
        assert_eq!(
            t.check(Token::Power(PowerToken(2))),
            Err(TokenError::Undefined(0x4102))
        );
        assert!(
            t.check(Token::Province(ProvinceToken::from_code(0x5201).unwrap()))
                .is_ok()
        );
        let names: Vec<_> = t.powers().map(|(_, n)| n.to_string()).collect();
        assert_eq!(names, ["NOR", "SOU"]);
    }

    #[test]
    fn bad_rms_are_rejected() {
        assert_eq!(TokenTable::from_rm(&[0; 5]), Err(TokenError::RmLength(5)));
        // Category 0x48 (command) is not allowed in an RM.
        assert!(matches!(
            TokenTable::from_rm(&[0x48, 0x00, b'A', b'B', b'C', 0]),
            Err(TokenError::RmCategory { .. })
        ));
        // Missing NUL terminator.
        assert!(matches!(
            TokenTable::from_rm(&[0x41, 0x00, b'A', b'B', b'C', b'D']),
            Err(TokenError::RmName { .. })
        ));
        // Duplicate name.
        assert!(matches!(
            TokenTable::from_rm(&[
                0x41, 0x00, b'A', b'B', b'C', 0, 0x41, 0x01, b'A', b'B', b'C', 0
            ]),
            Err(TokenError::RmDuplicate { .. })
        ));
        // Name reusing a fixed token.
        assert!(matches!(
            TokenTable::from_rm(&[0x41, 0x00, b'M', b'T', b'O', 0]),
            Err(TokenError::RmDuplicate { .. })
        ));
    }

    #[test]
    fn every_name_resolves_both_ways_in_any_case() {
        // Names at both ends of the name and code ranges, digits included.
        let mut rm = Vec::new();
        let entries = [
            (0x4100u16, b"000"),
            (0x41FF, b"ZZZ"),
            (0x5000, b"9Z0"),
            (0x57FF, b"A1B"),
        ];
        for (code, name) in entries {
            rm.extend_from_slice(&code.to_be_bytes());
            rm.extend_from_slice(name);
            rm.push(0);
        }
        let t = TokenTable::from_rm(&rm).unwrap();
        for (code, name) in entries {
            let upper = std::str::from_utf8(name).unwrap();
            let token = Token::from_code(code).unwrap();
            assert_eq!(t.token_by_name(upper), Some(token), "{upper}");
            assert_eq!(t.token_by_name(&upper.to_lowercase()), Some(token));
            assert_eq!(t.name_of(token).as_deref(), Some(upper));
            assert!(t.check(token).is_ok());
        }
        let standard = TokenTable::standard();
        for code in 0x4000..=0x4AFFu16 {
            if let Some(token) = Token::from_code(code)
                .ok()
                .filter(|t| t.fixed_name().is_some())
            {
                let name = token.fixed_name().unwrap();
                assert_eq!(t.token_by_name(name), Some(token), "{name}");
                assert_eq!(standard.token_by_name(&name.to_lowercase()), Some(token));
            }
        }
        for (name, _) in STANDARD_PROVINCES {
            assert_eq!(t.token_by_name(name), None, "{name}");
            assert!(standard.token_by_name(name).is_some(), "{name}");
        }
        for word in ["", "A", "AB", "ABCD", "A-B", "AB ", "ÄBC", "LON"] {
            assert_eq!(t.token_by_name(word), None, "{word:?}");
        }
        assert_eq!(t.power("9Z0"), None, "a province is not a power");
        assert_eq!(t.province("ZZZ"), None, "a power is not a province");
    }

    #[test]
    fn fixed_names_are_unique_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for code in 0x4000..=0x4AFFu16 {
            if let Ok(t) = Token::from_code(code)
                && let Some(n) = t.fixed_name()
            {
                assert!(seen.insert(n), "duplicate name {n}");
                assert_eq!(Token::from_fixed_name(n), Some(t));
            }
        }
        assert!(seen.len() > 120);
        for unknown in ["", "AAA", "ZZZ", "bra", "BR", "BRAX", "LON"] {
            assert_eq!(Token::from_fixed_name(unknown), None, "{unknown:?}");
        }
    }
}
