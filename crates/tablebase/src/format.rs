//! The table file format (`<ENDING>.btb`), version 1. All integers little-endian.
//!
//! ```text
//! offset size  field
//!      0    8  magic "BSTNTB\r\n"
//!      8    4  format version (1)
//!     12   16  material name, ASCII, NUL-padded ("KRKN")
//!     28    1  metric: 1 = distance to mate in plies (`KRKN.btb`),
//!              2 = distance to conversion in plies (`KRKN.dtc.btb`),
//!              3 = distance to zeroing in plies (`KPK.dtz.btb`)
//!     29    1  index scheme: 3 = pawnless 8-fold (462 king pairs × 64 per
//!              man, C(64, l) per group of l like men), 4 = pawns 2-fold (32 × 64
//!              king squares × 64 per piece, 48 per pawn, C(64, l) or C(48, l)
//!              per group); 1 and 2, the same without groups (each like man 64
//!              or 48, sorted), are read but no longer written
//!     30    1  bytes per value in the payload (1 or 2)
//!     31    1  reserved (0)
//!     32    8  indices per side to move (N)
//!     40    4  values per block (B)
//!     44    4  blocks per side (K = ceil(N / B))
//!     48    2  largest distance (to mate or to conversion) in plies
//!     50    2  reserved (0)
//!     52    4  CRC-32 of the payload (everything after the header)
//!     56    4  CRC-32 of bytes 0..56
//!     60       payload:
//!              block offset table: 2K + 1 u64, offsets of the blocks from the
//!              start of the blocks area (White-to-move blocks, then Black),
//!              the last entry being the area's length;
//!              the blocks: each zstd-compressed, holding B values (the last
//!              block of a side fewer) of `bytes per value` each.
//! ```
//!
//! A value is the code of [`crate::value`]: 0 draw, 1 illegal/non-canonical,
//! `2 + n` mate (or conversion) in `n` plies (side to move wins if `n` is odd,
//! loses if even).
//! Index `i` of side `s` lies in block `s·K + i / B` at position `i mod B`, so
//! one probe decompresses one block (cached by [`crate::probe`]).
//!
//! Files are written to `<name>.btb.tmp` and renamed, so a reader sees either
//! no file or a complete one; opening checks both checksums and the sizes, so
//! a truncated or corrupt file is reported, never probed. [`TableFile::open`]
//! accepts DTM tables only, so a DTC table renamed to a DTM table's name is
//! refused ([`TbError::WrongMetric`]), never read as distances to mate.

use crate::error::TbError;
use crate::index::Indexer;
use crate::material::Material;
use crate::metric::Metric;
use crate::table::{Codes, TableData, ValueSource};
use bastion_core::Color;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// File magic.
pub const MAGIC: &[u8; 8] = b"BSTNTB\r\n";
/// Format version written and accepted.
pub const VERSION: u32 = 1;
/// Header length in bytes.
pub const HEADER_LEN: usize = 60;
/// Values per compressed block.
pub const BLOCK_VALUES: usize = 1 << 15;
/// zstd level used for writing (higher levels measured little smaller, much slower).
pub const ZSTD_LEVEL: i32 = 9;

/// The file name of an ending's DTM table (`KRKN.btb`); [`Metric::file_name`]
/// names the tables of any metric.
pub fn file_name(m: &Material) -> String {
    Metric::Dtm.file_name(m)
}

/// Parsed header of a table file.
#[derive(Clone, Debug)]
pub struct Header {
    /// The ending.
    pub material: Material,
    /// What the distances count.
    pub metric: Metric,
    /// Index scheme code ([`Indexer::header_code`]: 3 pawnless, 4 pawns; 1 and 2 unfolded).
    pub scheme: u8,
    /// Bytes per value (1 or 2).
    pub width: u8,
    /// Indices per side.
    pub size: u64,
    /// Values per block.
    pub block_values: u32,
    /// Blocks per side.
    pub blocks: u32,
    /// Largest distance (to mate or to conversion) in plies.
    pub max_plies: u16,
    /// CRC-32 of the payload.
    pub payload_crc: u32,
}

/// Bytes per value a table whose longest distance is `max_plies` is written with (1 when
/// every code fits in a byte).
pub fn value_width(max_plies: u16) -> u8 {
    if max_plies as u32 + 2 <= 255 {
        1
    } else {
        2
    }
}

/// One block of the payload: `codes` (at most [`BLOCK_VALUES`]) at `width` bytes each,
/// compressed.
pub fn compress_block(codes: impl Iterator<Item = u16>, width: u8) -> Vec<u8> {
    let raw: Vec<u8> =
        if width == 1 { codes.map(|c| c as u8).collect() } else { codes.flat_map(u16::to_le_bytes).collect() };
    zstd::bulk::compress(&raw, ZSTD_LEVEL).expect("zstd compression of memory cannot fail")
}

/// What the header says of a table besides its blocks.
#[derive(Clone, Copy, Debug)]
pub struct TableShape<'a> {
    /// The indexer (material, scheme, size).
    pub indexer: &'a Indexer,
    /// What the distances count.
    pub metric: Metric,
    /// Longest distance in plies.
    pub max_plies: u16,
}

/// The whole file from its compressed blocks (White to move's, then Black's, each
/// [`compress_block`] of [`BLOCK_VALUES`] codes at [`value_width`]`(max_plies)`).
///
/// The file is built in one buffer, header last: the blocks are the only other copy, which
/// matters at the end of a six-man generation, where they are gigabytes.
pub fn assemble<B: AsRef<[u8]>>(shape: TableShape, blocks: &[B]) -> Vec<u8> {
    let size = shape.indexer.size();
    let per_side = size.div_ceil(BLOCK_VALUES as u64) as u32;
    assert_eq!(blocks.len(), 2 * per_side as usize, "a table has ceil(size / B) blocks per side");
    let offsets = 8 * (blocks.len() + 1);
    let mut file = Vec::with_capacity(HEADER_LEN + offsets + blocks.iter().map(|c| c.as_ref().len()).sum::<usize>());
    file.resize(HEADER_LEN, 0);
    let mut off = 0u64;
    for c in blocks {
        file.extend_from_slice(&off.to_le_bytes());
        off += c.as_ref().len() as u64;
    }
    file.extend_from_slice(&off.to_le_bytes());
    for c in blocks {
        file.extend_from_slice(c.as_ref());
    }
    let payload_crc = crc32fast::hash(&file[HEADER_LEN..]);
    let mut h = Vec::with_capacity(HEADER_LEN);
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&VERSION.to_le_bytes());
    let mut name = [0u8; 16];
    let nb = shape.indexer.material().name();
    name[..nb.len()].copy_from_slice(nb.as_bytes());
    h.extend_from_slice(&name);
    h.push(shape.metric.header_code());
    h.push(shape.indexer.header_code());
    h.push(value_width(shape.max_plies));
    h.push(0);
    h.extend_from_slice(&size.to_le_bytes());
    h.extend_from_slice(&(BLOCK_VALUES as u32).to_le_bytes());
    h.extend_from_slice(&per_side.to_le_bytes());
    h.extend_from_slice(&shape.max_plies.to_le_bytes());
    h.extend_from_slice(&[0, 0]);
    h.extend_from_slice(&payload_crc.to_le_bytes());
    let hc = crc32fast::hash(&h);
    h.extend_from_slice(&hc.to_le_bytes());
    debug_assert_eq!(h.len(), HEADER_LEN);
    file[..HEADER_LEN].copy_from_slice(&h);
    file
}

/// Serialises a table into the file format.
pub fn encode_table(t: &TableData) -> Vec<u8> {
    use rayon::prelude::*;
    let max_plies = t.max_plies();
    let width = value_width(max_plies);
    let size = t.indexer.size() as usize;
    let blocks = size.div_ceil(BLOCK_VALUES);
    let jobs: Vec<(usize, usize)> = (0..2).flat_map(|s| (0..blocks).map(move |b| (s, b))).collect();
    let compressed: Vec<Vec<u8>> = jobs
        .par_iter()
        .map(|&(s, b)| {
            let range = b * BLOCK_VALUES..((b + 1) * BLOCK_VALUES).min(size);
            compress_block(range.map(|i| t.values[s].get(i)), width)
        })
        .collect();
    assemble(TableShape { indexer: &t.indexer, metric: t.metric, max_plies }, &compressed)
}

/// Writes a table to `dir` atomically (temporary file, fsync, rename), under
/// its metric's file name.
pub fn write_table(dir: &Path, t: &TableData) -> Result<PathBuf, TbError> {
    write_file(dir, &t.metric.file_name(t.material()), &encode_table(t))
}

/// Writes a table file's `bytes` ([`encode_table`], [`assemble`]) to `dir/name` atomically
/// (temporary file, fsync, rename).
pub fn write_file(dir: &Path, name: &str, bytes: &[u8]) -> Result<PathBuf, TbError> {
    let path = dir.join(name);
    let tmp = dir.join(format!("{name}.tmp"));
    let io = |p: &Path| {
        let p = p.to_path_buf();
        move |source| TbError::Io { path: p, error: source }
    };
    let mut f = std::fs::File::create(&tmp).map_err(io(&tmp))?;
    f.write_all(bytes).map_err(io(&tmp))?;
    f.sync_all().map_err(io(&tmp))?;
    drop(f);
    std::fs::rename(&tmp, &path).map_err(io(&path))?;
    Ok(path)
}

/// A refused or failed bounded read as a table error: an I/O error stays one, a device
/// or an oversized file is reported as not a valid table.
pub(crate) fn read_error(path: &Path, e: bastion_core::io::BoundedReadError) -> TbError {
    use bastion_core::io::BoundedReadError;
    match e {
        BoundedReadError::Io { source, .. } => TbError::Io { path: path.to_path_buf(), error: source },
        BoundedReadError::NotRegular { .. } => corrupt(path, "not a regular file"),
        BoundedReadError::TooLarge { limit, .. } => {
            corrupt(path, format!("file larger than {limit} bytes, the most its header allows"))
        }
    }
}

fn corrupt(path: &Path, reason: impl Into<String>) -> TbError {
    TbError::Corrupt { path: path.to_path_buf(), reason: reason.into() }
}

/// Parses and checks a header (magic, version, header checksum, fields).
pub fn parse_header(path: &Path, bytes: &[u8]) -> Result<Header, TbError> {
    if bytes.len() < HEADER_LEN {
        return Err(corrupt(path, format!("truncated: {} bytes, header needs {HEADER_LEN}", bytes.len())));
    }
    if &bytes[..8] != MAGIC {
        return Err(corrupt(path, "not a Bastion table (bad magic)"));
    }
    let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap());
    let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().unwrap());
    if crc32fast::hash(&bytes[..56]) != u32_at(56) {
        return Err(corrupt(path, "header checksum mismatch"));
    }
    let version = u32_at(8);
    if version != VERSION {
        return Err(corrupt(path, format!("format version {version}, this build reads {VERSION}")));
    }
    let name: String = bytes[12..28].iter().take_while(|&&b| b != 0).map(|&b| b as char).collect();
    let material = Material::parse(&name).map_err(|_| corrupt(path, format!("bad material {name:?}")))?;
    let metric = Metric::from_header_code(bytes[28])
        .ok_or_else(|| corrupt(path, format!("unknown metric code {} in the header", bytes[28])))?;
    let h = Header {
        material,
        metric,
        scheme: bytes[29],
        width: bytes[30],
        size: u64_at(32),
        block_values: u32_at(40),
        blocks: u32_at(44),
        max_plies: u16::from_le_bytes([bytes[48], bytes[49]]),
        payload_crc: u32_at(52),
    };
    let Some(ix) = Indexer::from_header(&h.material, h.scheme) else {
        return Err(corrupt(path, format!("index scheme {} does not fit {}", h.scheme, h.material.name())));
    };
    if !(h.width == 1 || h.width == 2)
        || h.size != ix.size()
        || h.block_values == 0
        || h.blocks as u64 != h.size.div_ceil(h.block_values as u64)
    {
        return Err(corrupt(path, "header fields do not match the material"));
    }
    Ok(h)
}

/// A table file held in memory (compressed), decompressing blocks on demand.
pub struct TableFile {
    path: PathBuf,
    header: Header,
    indexer: Indexer,
    bytes: Vec<u8>,
    offsets: Vec<u64>,
    blocks_start: usize,
    cache: Mutex<BlockCache>,
}

/// A small cache of decompressed blocks (most recent first).
struct BlockCache {
    entries: Vec<(u32, Arc<Vec<u16>>)>,
}

/// Decompressed blocks kept per table.
const CACHE_BLOCKS: usize = 16;

impl TableFile {
    /// Reads and checks a DTM table file (both checksums, offsets, sizes); a table
    /// of another metric is refused with [`TbError::WrongMetric`].
    pub fn open(path: &Path) -> Result<TableFile, TbError> {
        TableFile::open_metric(path, Metric::Dtm)
    }

    /// Reads and checks a table file of `metric`; one of another metric is refused.
    pub fn open_metric(path: &Path, metric: Metric) -> Result<TableFile, TbError> {
        let f = TableFile::open_any(path)?;
        if f.header.metric != metric {
            return Err(TbError::WrongMetric { path: path.to_path_buf(), found: f.header.metric, expected: metric });
        }
        Ok(f)
    }

    /// Reads and checks a table file of any metric (see [`Header::metric`]).
    pub fn open_any(path: &Path) -> Result<TableFile, TbError> {
        // The header says how large the file may be: the offset table and every block
        // at zstd's worst-case size. Anything larger (or a device) is refused unread.
        let header =
            parse_header(path, &bastion_core::io::read_head(path, HEADER_LEN).map_err(|e| read_error(path, e))?)?;
        let block_raw = header.block_values as usize * header.width as usize;
        let max_len = (HEADER_LEN as u64).saturating_add((2 * header.blocks as u64 + 1) * 8).saturating_add(
            (2 * header.blocks as u64).saturating_mul(zstd::zstd_safe::compress_bound(block_raw) as u64),
        );
        let bytes = bastion_core::io::read_bounded(path, max_len).map_err(|e| read_error(path, e))?;
        let header = parse_header(path, &bytes)?;
        let payload = &bytes[HEADER_LEN..];
        if crc32fast::hash(payload) != header.payload_crc {
            return Err(corrupt(path, "payload checksum mismatch (truncated or damaged file)"));
        }
        let n_off = 2 * header.blocks as usize + 1;
        if payload.len() < n_off * 8 {
            return Err(corrupt(path, "truncated offset table"));
        }
        let offsets: Vec<u64> =
            (0..n_off).map(|i| u64::from_le_bytes(payload[i * 8..i * 8 + 8].try_into().unwrap())).collect();
        let blocks_start = HEADER_LEN + n_off * 8;
        let area = (bytes.len() - blocks_start) as u64;
        if offsets.windows(2).any(|w| w[0] > w[1]) || offsets[0] != 0 || *offsets.last().unwrap() != area {
            return Err(corrupt(path, "block offsets inconsistent with file length"));
        }
        let indexer = Indexer::from_header(&header.material, header.scheme).expect("checked by parse_header");
        Ok(TableFile {
            path: path.to_path_buf(),
            header,
            indexer,
            bytes,
            offsets,
            blocks_start,
            cache: Mutex::new(BlockCache { entries: Vec::new() }),
        })
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Size of the file in bytes.
    pub fn file_len(&self) -> u64 {
        self.bytes.len() as u64
    }

    /// The stored bytes of one block (`width` bytes per value).
    fn decompress_raw(&self, block: u32) -> Result<Vec<u8>, TbError> {
        let b = block as usize;
        let data =
            &self.bytes[self.blocks_start + self.offsets[b] as usize..self.blocks_start + self.offsets[b + 1] as usize];
        let side_block = b % self.header.blocks as usize;
        let first = side_block as u64 * self.header.block_values as u64;
        let count = (self.header.size - first).min(self.header.block_values as u64) as usize;
        let raw_len = count * self.header.width as usize;
        let raw = zstd::bulk::decompress(data, raw_len).map_err(|e| corrupt(&self.path, format!("block {b}: {e}")))?;
        if raw.len() != raw_len {
            return Err(corrupt(&self.path, format!("block {b}: {} bytes, expected {raw_len}", raw.len())));
        }
        Ok(raw)
    }

    fn decompress(&self, block: u32) -> Result<Vec<u16>, TbError> {
        let raw = self.decompress_raw(block)?;
        Ok(if self.header.width == 1 {
            raw.into_iter().map(u16::from).collect()
        } else {
            raw.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect()
        })
    }

    fn block(&self, block: u32) -> Result<Arc<Vec<u16>>, TbError> {
        {
            let mut c = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(pos) = c.entries.iter().position(|(b, _)| *b == block) {
                let e = c.entries.remove(pos);
                let v = e.1.clone();
                c.entries.insert(0, e);
                return Ok(v);
            }
        }
        // Decompress outside the lock so threads probing other blocks do not wait.
        let v = Arc::new(self.decompress(block)?);
        let mut c = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        c.entries.insert(0, (block, v.clone()));
        c.entries.truncate(CACHE_BLOCKS);
        Ok(v)
    }

    /// Decompresses the whole table (for generation, verification, statistics).
    /// One-byte values stay one byte each in memory.
    pub fn load(&self) -> Result<TableData, TbError> {
        let size = self.header.size as usize;
        let side = |s: u32| -> Result<Codes, TbError> {
            let blocks = (0..self.header.blocks).map(|b| s * self.header.blocks + b);
            if self.header.width == 1 {
                let mut v = Vec::with_capacity(size);
                for b in blocks {
                    v.extend(self.decompress_raw(b)?);
                }
                Ok(Codes::Narrow(v))
            } else {
                let mut v = Vec::with_capacity(size);
                for b in blocks {
                    v.extend(self.decompress(b)?);
                }
                Ok(Codes::Wide(v))
            }
        };
        Ok(TableData { indexer: self.indexer.clone(), metric: self.header.metric, values: [side(0)?, side(1)?] })
    }
}

impl ValueSource for TableFile {
    fn indexer(&self) -> &Indexer {
        &self.indexer
    }
    fn code(&self, side: Color, idx: u64) -> Result<u16, TbError> {
        let bv = self.header.block_values as u64;
        let block = side.index() as u32 * self.header.blocks + (idx / bv) as u32;
        Ok(self.block(block)?[(idx % bv) as usize])
    }
    fn metric(&self) -> Metric {
        self.header.metric
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitbase::Bitbase;
    use crate::gen::generate;
    use crate::table::TableSet;

    /// A device, or a valid table with gigabytes appended, is refused before anything
    /// is read past the header; a sparse tail costs no disk.
    #[test]
    fn table_and_bitbase_files_are_read_with_a_bound() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        if Path::new("/dev/zero").exists() {
            let e = TableFile::open(Path::new("/dev/zero")).err().expect("a device is no table");
            assert!(e.to_string().contains("not a regular file"), "{e}");
            let e = Bitbase::read(Path::new("/dev/zero")).err().expect("a device is no bitbase");
            assert!(e.to_string().contains("not a regular file"), "{e}");
        }
        let (t, _) = generate(&Material::parse("KRK").unwrap(), &TableSet::new(), &indicatif::ProgressBar::hidden());
        let path = write_table(dir, &t).unwrap();
        assert!(TableFile::open(&path).is_ok());
        let len = std::fs::metadata(&path).unwrap().len();
        std::fs::OpenOptions::new().write(true).open(&path).unwrap().set_len(len + (1 << 40)).unwrap();
        let e = TableFile::open(&path).err().expect("an oversized table");
        assert!(e.to_string().contains("file larger than"), "{e}");
        let bb = Bitbase::from_table(&t).write(dir).unwrap();
        assert!(Bitbase::read(&bb).is_ok());
        let len = std::fs::metadata(&bb).unwrap().len();
        std::fs::OpenOptions::new().write(true).open(&bb).unwrap().set_len(len + (1 << 40)).unwrap();
        let e = Bitbase::read(&bb).err().expect("an oversized bitbase");
        assert!(e.to_string().contains("file larger than"), "{e}");
    }
}
