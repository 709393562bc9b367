//! 2-bit win/draw/loss bitbases derived from DTM tables, for fast probing in
//! search (the idea of keeping only the "won" knowledge compactly, as in the
//! ENAX bases of Vučković, thesis, §6.7, with one more bit for losses).
//!
//! Each index takes two bits (0 draw or illegal, 1 win, 2 loss for the side
//! to move), 32 positions per `u64`, uncompressed so a probe is one load.
//! File `<ENDING>.bwdl`: magic `BSTNWDL\n`, version u32, name [16], size
//! u64, CRC-32 of the words u32, then 2 × ceil(size/32) little-endian u64.

use crate::error::TbError;
use crate::index::Indexer;
use crate::material::Material;
use crate::table::{TableData, TableSet, ValueSource};
use crate::value::{Dtm, Wdl};
use bastion_core::{Color, Position};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Bitbase file magic.
pub const MAGIC: &[u8; 8] = b"BSTNWDL\n";
const VERSION: u32 = 1;
const HEADER: usize = 8 + 4 + 16 + 8 + 4;

/// A 2-bit WDL bitbase of one ending.
pub struct Bitbase {
    indexer: Indexer,
    words: [Vec<u64>; 2],
}

impl Bitbase {
    /// Derives the bitbase from a DTM table.
    pub fn from_table(t: &TableData) -> Bitbase {
        let n = t.indexer.size() as usize;
        let mut words = [vec![0u64; n.div_ceil(32)], vec![0u64; n.div_ceil(32)]];
        for (s, w) in words.iter_mut().enumerate() {
            for (i, code) in t.values[s].iter().enumerate() {
                let bits = match Dtm::from_code(code) {
                    Some(Dtm::Win(_)) => 1u64,
                    Some(Dtm::Loss(_)) => 2,
                    _ => 0,
                };
                w[i / 32] |= bits << (2 * (i % 32));
            }
        }
        Bitbase { indexer: t.indexer.clone(), words }
    }

    /// WDL at an index (draw also for illegal indices).
    #[inline]
    pub fn wdl(&self, side: Color, idx: u64) -> Wdl {
        let i = idx as usize;
        match (self.words[side.index()][i / 32] >> (2 * (i % 32))) & 3 {
            1 => Wdl::Win,
            2 => Wdl::Loss,
            _ => Wdl::Draw,
        }
    }

    /// Bytes of the bit arrays.
    pub fn bytes(&self) -> usize {
        (self.words[0].len() + self.words[1].len()) * 8
    }

    /// Writes `<ENDING>.bwdl` into `dir` atomically.
    pub fn write(&self, dir: &Path) -> Result<PathBuf, TbError> {
        let name = self.indexer.material().name();
        let path = dir.join(format!("{name}.bwdl"));
        let tmp = dir.join(format!("{name}.bwdl.tmp"));
        let mut body = Vec::with_capacity(self.bytes());
        for w in self.words.iter().flatten() {
            body.extend_from_slice(&w.to_le_bytes());
        }
        let mut out = Vec::with_capacity(HEADER + body.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        let mut nm = [0u8; 16];
        nm[..name.len()].copy_from_slice(name.as_bytes());
        out.extend_from_slice(&nm);
        out.extend_from_slice(&self.indexer.size().to_le_bytes());
        out.extend_from_slice(&crc32fast::hash(&body).to_le_bytes());
        out.extend_from_slice(&body);
        std::fs::write(&tmp, &out).map_err(|source| TbError::Io { path: tmp.clone(), error: source })?;
        std::fs::rename(&tmp, &path).map_err(|source| TbError::Io { path: path.clone(), error: source })?;
        Ok(path)
    }

    /// Reads and checks a `.bwdl` file.
    pub fn read(path: &Path) -> Result<Bitbase, TbError> {
        let bad = |r: &str| TbError::Corrupt { path: path.to_path_buf(), reason: r.to_string() };
        // The header names the material, which fixes the file's exact size: read no more.
        let head = bastion_core::io::read_head(path, HEADER).map_err(|e| crate::format::read_error(path, e))?;
        let head_name: String = head.iter().skip(12).take(16).take_while(|&&c| c != 0).map(|&c| c as char).collect();
        let expected = match Material::parse(&head_name) {
            Ok(m) => HEADER as u64 + 16 * Indexer::new(&m).size().div_ceil(32),
            Err(_) => return Err(bad("not a Bastion bitbase")),
        };
        let b = bastion_core::io::read_bounded(path, expected).map_err(|e| crate::format::read_error(path, e))?;
        if b.len() < HEADER || &b[..8] != MAGIC {
            return Err(bad("not a Bastion bitbase"));
        }
        if u32::from_le_bytes(b[8..12].try_into().unwrap()) != VERSION {
            return Err(bad("unknown bitbase version"));
        }
        let name: String = b[12..28].iter().take_while(|&&c| c != 0).map(|&c| c as char).collect();
        let m = Material::parse(&name).map_err(|_| bad("bad material"))?;
        let indexer = Indexer::new(&m);
        let size = u64::from_le_bytes(b[28..36].try_into().unwrap());
        let words_per_side = (size as usize).div_ceil(32);
        if size != indexer.size() || b.len() != HEADER + 16 * words_per_side {
            return Err(bad("size does not match material (truncated?)"));
        }
        let body = &b[HEADER..];
        if crc32fast::hash(body) != u32::from_le_bytes(b[36..40].try_into().unwrap()) {
            return Err(bad("checksum mismatch"));
        }
        let all: Vec<u64> = body.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect();
        let (w, bl) = all.split_at(words_per_side);
        Ok(Bitbase { indexer, words: [w.to_vec(), bl.to_vec()] })
    }
}

impl ValueSource for Bitbase {
    fn indexer(&self) -> &Indexer {
        &self.indexer
    }
    /// Stands in a DTM code of the right sign (distance 1 or 2) for the WDL.
    fn code(&self, side: Color, idx: u64) -> Result<u16, TbError> {
        Ok(match self.wdl(side, idx) {
            Wdl::Win | Wdl::CursedWin => Dtm::Win(1).code(),
            Wdl::Loss | Wdl::BlessedLoss => Dtm::Loss(2).code(),
            Wdl::Draw => Dtm::Draw.code(),
        })
    }
    /// The stand-in codes are read for their win/draw/loss only, in a set of DTM tables.
    fn metric(&self) -> crate::metric::Metric {
        crate::metric::Metric::Dtm
    }
}

/// A set of bitbases, probed by position (colour flips, en passant handled).
#[derive(Default)]
pub struct Bitbases {
    set: TableSet,
}

impl Bitbases {
    /// An empty set.
    pub fn new() -> Bitbases {
        Bitbases::default()
    }

    /// Adds a bitbase.
    pub fn insert(&mut self, b: Bitbase) {
        self.set.insert(Arc::new(b));
    }

    /// Loads every `*.bwdl` file of `dir`.
    pub fn open(dir: &Path) -> Result<Bitbases, TbError> {
        let mut out = Bitbases::new();
        let rd = std::fs::read_dir(dir).map_err(|source| TbError::Io { path: dir.to_path_buf(), error: source })?;
        for e in rd.flatten() {
            if e.path().extension().and_then(|x| x.to_str()) == Some("bwdl") {
                out.insert(Bitbase::read(&e.path())?);
            }
        }
        Ok(out)
    }

    /// WDL for the side to move, `None` if the ending is not loaded.
    pub fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
        self.set.probe(pos).ok().flatten().map(Dtm::wdl)
    }
}
