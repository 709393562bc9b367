//! 2-bit win/draw/loss bitbases derived from DTM tables, for fast probing in
//! search (the idea of keeping only the "won" knowledge compactly, as in the
//! ENAX bases of Vučković, thesis, §6.7, with one more bit for losses).
//!
//! Each index takes two bits (0 draw or illegal, 1 win, 2 loss for the side
//! to move), 32 positions per `u64`, uncompressed so a probe is one load.
//! File `<ENDING>.bwdl`: magic `BSTNWDL\n`, version u32, name `[16]`, size
//! u64, CRC-32 of the words u32, then 2 × ceil(size/32) little-endian u64.
//! Version 2 indexes like the table files `tb gen` writes (like men folded);
//! version 1 files, indexed with like men unfolded, are still read.
//!
//! [`Bitbase`] holds the words in memory (to derive and write a file);
//! [`MappedBitbase`] maps a file and reads the two bits of a position straight
//! from the mapping, with no allocation and no lock per probe: what the
//! engine's search probes (option `BastionTBPath`, through [`Bitbases`]).

use crate::error::TbError;
use crate::index::Indexer;
use crate::material::Material;
use crate::table::{TableData, TableSet, ValueSource};
use crate::value::{Dtm, Wdl};
use bastion_core::tablebase::TablebaseProbe;
use bastion_core::{Color, Position};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Bitbase file magic.
pub const MAGIC: &[u8; 8] = b"BSTNWDL\n";
const VERSION: u32 = 2;
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
        wdl_of_bits((self.words[side.index()][i / 32] >> (2 * (i % 32))) as u8)
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
        // A bitbase derived from an older (unfolded) table keeps that table's index.
        let version = if self.indexer.folded() { VERSION } else { 1 };
        out.extend_from_slice(&version.to_le_bytes());
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
        // The header names the material, which fixes the file's exact size: read no more.
        let head = bastion_core::io::read_head(path, HEADER).map_err(|e| crate::format::read_error(path, e))?;
        let expected = file_len(path, &head)?;
        let b = bastion_core::io::read_bounded(path, expected).map_err(|e| crate::format::read_error(path, e))?;
        let (indexer, words_per_side) = check(path, &b)?;
        let all: Vec<u64> = b[HEADER..].chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect();
        let (w, bl) = all.split_at(words_per_side);
        Ok(Bitbase { indexer, words: [w.to_vec(), bl.to_vec()] })
    }
}

fn corrupt(path: &Path, reason: &str) -> TbError {
    TbError::Corrupt { path: path.to_path_buf(), reason: reason.to_string() }
}

/// The material named in a header (at least the name's bytes of it).
fn header_material(path: &Path, head: &[u8]) -> Result<Material, TbError> {
    if head.len() < HEADER || &head[..8] != MAGIC {
        return Err(corrupt(path, "not a Bastion bitbase"));
    }
    let name: String = head[12..28].iter().take_while(|&&c| c != 0).map(|&c| c as char).collect();
    Material::parse(&name).map_err(|_| corrupt(path, "bad material"))
}

/// The indexer of a file whose header is `head` (its version says how it is indexed).
fn header_indexer(path: &Path, head: &[u8]) -> Result<Indexer, TbError> {
    let m = header_material(path, head)?;
    match u32::from_le_bytes(head[8..12].try_into().unwrap()) {
        VERSION => Ok(Indexer::new(&m)),
        1 => Ok(Indexer::unfolded(&m)),
        _ => Err(corrupt(path, "unknown bitbase version")),
    }
}

/// The exact length of a file whose header is `head`: the material and version fix it.
fn file_len(path: &Path, head: &[u8]) -> Result<u64, TbError> {
    Ok(HEADER as u64 + 16 * header_indexer(path, head)?.size().div_ceil(32))
}

/// Checks a whole file's bytes (magic, version, material, size, checksum); the
/// indexer and the number of words per side to move.
fn check(path: &Path, b: &[u8]) -> Result<(Indexer, usize), TbError> {
    let indexer = header_indexer(path, b)?;
    let size = u64::from_le_bytes(b[28..36].try_into().unwrap());
    let words_per_side = (size as usize).div_ceil(32);
    if size != indexer.size() || b.len() != HEADER + 16 * words_per_side {
        return Err(corrupt(path, "size does not match material (truncated?)"));
    }
    if crc32fast::hash(&b[HEADER..]) != u32::from_le_bytes(b[36..40].try_into().unwrap()) {
        return Err(corrupt(path, "checksum mismatch"));
    }
    Ok((indexer, words_per_side))
}

/// The two bits of a value (the file's encoding).
#[inline]
fn wdl_of_bits(bits: u8) -> Wdl {
    match bits & 3 {
        1 => Wdl::Win,
        2 => Wdl::Loss,
        _ => Wdl::Draw,
    }
}

/// A DTM code of the right sign (distance 1 or 2) standing in for a WDL value, so
/// that bitbases fit in a [`TableSet`] of DTM tables (which handles colour flips and
/// en passant); only the codes' win/draw/loss is ever read.
fn stand_in_code(wdl: Wdl) -> u16 {
    match wdl {
        Wdl::Win | Wdl::CursedWin => Dtm::Win(1).code(),
        Wdl::Loss | Wdl::BlessedLoss => Dtm::Loss(2).code(),
        Wdl::Draw => Dtm::Draw.code(),
    }
}

/// A `.bwdl` file mapped into memory, checked once when opened (header, size,
/// checksum). A probe reads one byte of the mapping.
pub struct MappedBitbase {
    indexer: Indexer,
    map: memmap2::Mmap,
    /// Bytes of one side to move's bits.
    side_bytes: usize,
}

impl MappedBitbase {
    /// Maps and checks a `.bwdl` file.
    pub fn open(path: &Path) -> Result<MappedBitbase, TbError> {
        let head = bastion_core::io::read_head(path, HEADER).map_err(|e| crate::format::read_error(path, e))?;
        let expected = file_len(path, &head)?;
        // A regular file of at most the size its header allows (devices and FIFOs refused).
        let file = bastion_core::io::open_checked(path, expected).map_err(|e| crate::format::read_error(path, e))?;
        // SAFETY: `Mmap::map` is unsafe because the mapped file could change while
        // mapped, which Rust's `&[u8]` does not allow for. Bastion never changes a
        // bitbase in place: `Bitbase::write` writes a new file and renames it over the
        // old one, so a mapping keeps the old file's pages (the old inode lives on
        // while mapped); the test `a_mapping_survives_the_file_being_replaced`
        // checks this. Only a user editing the file in place while the engine runs
        // could change the bytes; the read-only mapping then shows other values (the
        // checksum was checked at open) but reads stay in bounds: every index is
        // checked against the mapping's length.
        let map =
            unsafe { memmap2::Mmap::map(&file) }.map_err(|error| TbError::Io { path: path.to_path_buf(), error })?;
        let (indexer, words_per_side) = check(path, &map)?;
        Ok(MappedBitbase { indexer, map, side_bytes: 8 * words_per_side })
    }

    /// WDL at an index for `side` to move (draw also for illegal indices).
    #[inline]
    pub fn wdl(&self, side: Color, idx: u64) -> Wdl {
        // Little-endian words: position i is bits 2(i mod 4) of byte i / 4.
        let i = idx as usize;
        let byte = self.map[HEADER + side.index() * self.side_bytes + i / 4];
        wdl_of_bits(byte >> (2 * (i % 4)))
    }

    /// Bytes mapped.
    pub fn bytes(&self) -> usize {
        self.map.len()
    }
}

impl ValueSource for MappedBitbase {
    fn indexer(&self) -> &Indexer {
        &self.indexer
    }
    fn code(&self, side: Color, idx: u64) -> Result<u16, TbError> {
        Ok(stand_in_code(self.wdl(side, idx)))
    }
    /// The stand-in codes are read for their win/draw/loss only, in a set of DTM tables.
    fn metric(&self) -> crate::metric::Metric {
        crate::metric::Metric::Dtm
    }
}

impl ValueSource for Bitbase {
    fn indexer(&self) -> &Indexer {
        &self.indexer
    }
    /// Stands in a DTM code of the right sign (distance 1 or 2) for the WDL.
    fn code(&self, side: Color, idx: u64) -> Result<u16, TbError> {
        Ok(stand_in_code(self.wdl(side, idx)))
    }
    /// The stand-in codes are read for their win/draw/loss only, in a set of DTM tables.
    fn metric(&self) -> crate::metric::Metric {
        crate::metric::Metric::Dtm
    }
}

/// A set of bitbases, probed by position (colour flips, en passant handled).
/// Behind the core's [`TablebaseProbe`] it answers WDL only (no distances).
#[derive(Default)]
pub struct Bitbases {
    set: TableSet,
    endings: Vec<(Material, PathBuf)>,
    max_men: u32,
}

impl Bitbases {
    /// An empty set.
    pub fn new() -> Bitbases {
        Bitbases::default()
    }

    /// Adds a bitbase (in memory or mapped).
    pub fn insert(&mut self, b: impl ValueSource + 'static) {
        self.max_men = self.max_men.max(b.material().count() as u32);
        self.set.insert(Arc::new(b));
    }

    /// Maps every `*.bwdl` file of `dir`.
    pub fn open(dir: &Path) -> Result<Bitbases, TbError> {
        Bitbases::open_dirs(&[dir])
    }

    /// Maps every `*.bwdl` file of `dirs` (later directories do not replace endings
    /// found earlier); a damaged file is an error that names it.
    pub fn open_dirs<P: AsRef<Path>>(dirs: &[P]) -> Result<Bitbases, TbError> {
        let mut out = Bitbases::new();
        for dir in dirs {
            let dir = dir.as_ref();
            for path in crate::probe::sorted_dir(dir)? {
                if path.extension().and_then(|x| x.to_str()) != Some("bwdl") {
                    continue;
                }
                let b = MappedBitbase::open(&path)?;
                let m = b.material().clone();
                if out.endings.iter().any(|(e, _)| *e == m) {
                    continue;
                }
                out.insert(b);
                out.endings.push((m, path));
            }
        }
        Ok(out)
    }

    /// The endings mapped from files, with their files.
    pub fn endings(&self) -> &[(Material, PathBuf)] {
        &self.endings
    }

    /// True when no bitbase is loaded.
    pub fn is_empty(&self) -> bool {
        self.max_men == 0
    }

    /// WDL for the side to move, `None` if the ending is not loaded.
    pub fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
        self.set.probe(pos).ok().flatten().map(Dtm::wdl)
    }
}

impl TablebaseProbe for Bitbases {
    fn max_pieces(&self) -> u32 {
        self.max_men
    }

    /// Exact without the 50-move rule, whatever the halfmove clock: only `Win`,
    /// `Draw` and `Loss`.
    fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
        Bitbases::probe_wdl(self, pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::generate;
    use crate::probers::Probers;

    /// Generates `names` in order into one set; the tables of the last ones.
    fn tables(names: &[&str]) -> (TableSet, Vec<Arc<TableData>>) {
        let mut set = TableSet::new();
        let mut out = Vec::new();
        for n in names {
            let (t, _) = generate(&Material::parse(n).unwrap(), &set, &indicatif::ProgressBar::hidden());
            let t = Arc::new(t);
            set.insert(t.clone());
            out.push(t);
        }
        (set, out)
    }

    /// Every index of the 3-man endings, then every legal position (both colour
    /// orientations) through the prober trait: the mapped bitbase gives the DTM
    /// table's win/draw/loss.
    #[test]
    fn mapped_bitbases_agree_with_the_dtm_tables_everywhere() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        // KPK promotes into the others.
        let (set, ts) = tables(&["KQK", "KRK", "KBK", "KNK", "KPK"]);
        for t in &ts {
            Bitbase::from_table(t).write(dir).unwrap();
        }
        let bbs = Bitbases::open(dir).unwrap();
        assert_eq!((bbs.endings().len(), TablebaseProbe::max_pieces(&bbs)), (5, 3));
        for t in &ts {
            let name = t.material().name();
            let mapped = MappedBitbase::open(&dir.join(format!("{name}.bwdl"))).unwrap();
            let mut checked = 0u64;
            for side in Color::ALL {
                for idx in 0..t.indexer.size() {
                    let want = t.dtm(side, idx).map_or(Wdl::Draw, Dtm::wdl);
                    assert_eq!(mapped.wdl(side, idx), want, "{name} {side:?} {idx}");
                    let Some(pos) = t.indexer.position(idx, side) else { continue };
                    let want = set.probe(&pos).unwrap().map(Dtm::wdl);
                    assert_eq!(TablebaseProbe::probe_wdl(&bbs, &pos), want, "{}", pos.fen());
                    assert_eq!(TablebaseProbe::probe_wdl(&bbs, &pos.mirrored()), want, "{}", pos.fen());
                    checked += 1;
                }
            }
            assert!(checked > 10_000, "{name}: {checked}");
        }
        // An ending without a bitbase is not covered.
        let krkn = Position::from_fen("8/8/8/4k3/8/8/3n4/R3K3 w - - 0 1").unwrap();
        assert_eq!(TablebaseProbe::probe_wdl(&bbs, &krkn), None);
    }

    /// The safety argument of the mapping: a bitbase rewritten while mapped is a new
    /// file, and the mapping keeps reading the old one.
    #[test]
    fn a_mapping_survives_the_file_being_replaced() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let (_, ts) = tables(&["KRK"]);
        let b = Bitbase::from_table(&ts[0]);
        let path = b.write(dir).unwrap();
        let mapped = MappedBitbase::open(&path).unwrap();
        let before: Vec<Wdl> = (0..b.indexer.size()).map(|i| mapped.wdl(Color::White, i)).collect();
        assert!(before.contains(&Wdl::Win));
        // Every value of the new file is a draw.
        let blank =
            Bitbase { indexer: b.indexer.clone(), words: [vec![0; b.words[0].len()], vec![0; b.words[1].len()]] };
        blank.write(dir).unwrap();
        let after: Vec<Wdl> = (0..b.indexer.size()).map(|i| mapped.wdl(Color::White, i)).collect();
        assert_eq!(before, after);
        let reopened = MappedBitbase::open(&path).unwrap();
        assert!((0..b.indexer.size()).all(|i| reopened.wdl(Color::White, i) == Wdl::Draw));
    }

    #[test]
    fn damaged_or_foreign_files_are_refused_with_their_name() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let (_, ts) = tables(&["KRK"]);
        let path = Bitbase::from_table(&ts[0]).write(dir).unwrap();
        let good = std::fs::read(&path).unwrap();
        let refused = |bytes: &[u8], want: &str| {
            std::fs::write(&path, bytes).unwrap();
            let e = MappedBitbase::open(&path).err().expect("refused");
            assert!(e.to_string().contains(want) && e.to_string().contains("KRK.bwdl"), "{e}");
            let e = Bitbases::open(dir).err().expect("refused");
            assert!(e.to_string().contains(want), "{e}");
        };
        let mut flipped = good.clone();
        *flipped.last_mut().unwrap() ^= 4;
        refused(&flipped, "checksum mismatch");
        refused(&good[..good.len() - 8], "size does not match");
        refused(&good[..20], "not a Bastion bitbase");
        refused(b"", "not a Bastion bitbase");
        let mut grown = good.clone();
        grown.extend_from_slice(&[0; 8]);
        refused(&grown, "file larger than");
        let mut version = good.clone();
        version[8] = 9;
        refused(&version, "unknown bitbase version");
        if Path::new("/dev/zero").exists() {
            let e = MappedBitbase::open(Path::new("/dev/zero")).err().expect("a device is no bitbase");
            assert!(e.to_string().contains("not a regular file"), "{e}");
        }
    }

    /// `BastionTBPath` directories: bitbases alone are enough; with DTM tables too,
    /// WDL comes from the bitbases and distances from the DTM tables.
    #[test]
    fn probers_load_bitbases_from_bastion_directories() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let (_, ts) = tables(&["KRK"]);
        Bitbase::from_table(&ts[0]).write(dir).unwrap();
        let p = Probers::open::<&Path>(&[dir], None).unwrap();
        assert!(p.dtm().is_none() && p.bitbases().is_some());
        assert_eq!(p.max_pieces(), 3);
        let won = Position::from_fen("8/8/8/4k3/8/8/8/R3K3 w - - 0 1").unwrap();
        assert_eq!(p.probe_wdl(&won), Some(Wdl::Win));
        assert_eq!(p.probe_wdl(&won.mirrored()), Some(Wdl::Win));
        assert_eq!(p.probe_dtm(&won), None);
        // Root values after every move, not only zeroing ones (no 50-move rule).
        let root = p.probe_root(&won).unwrap();
        assert_eq!(root.len(), won.legal_moves().len());
        assert!(root.iter().any(|&(_, w, _)| w == Wdl::Win));
        // A hanging rook: taking it draws.
        let hanging = Position::from_fen("8/8/8/8/8/8/3k4/3R3K b - - 0 1").unwrap();
        assert_eq!(p.probe_wdl(&hanging), Some(Wdl::Draw));
        crate::format::write_table(dir, &ts[0]).unwrap();
        let both = Probers::open::<&Path>(&[dir], None).unwrap();
        assert!(both.dtm().is_some() && both.bitbases().is_some());
        assert_eq!(both.probe_wdl(&won), Some(Wdl::Win));
        assert_eq!(both.probe_dtm(&won), Some(27));
    }
}
