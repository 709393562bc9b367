//! Converting data between `fen,result,game,score` lines ([`crate::dataset`]) and packed
//! records ([`crate::packed`]), each way as the file names say.

use crate::packed::{for_each_record, read_index, DataFormat, PackedRecord, RECORD_BYTES};
use std::path::{Path, PathBuf};

/// What [`convert`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Converted {
    /// Positions written.
    pub written: u64,
    /// Lines or records that could not be converted: bad ones, and lines without a score or
    /// a result (a packed record must have both).
    pub skipped: u64,
}

/// Converts a data file between `fen,result,game,score` lines and packed records, each way
/// as the names say ([`DataFormat::of`]). Lines written from a packed file take their game
/// number from its index when there is one, else from their place in the file. The output
/// is written to `to` + `.partial` and renamed when complete, so an interrupted conversion
/// never leaves a short file under the final name. `progress` gets the positions written.
pub fn convert(from: &Path, to: &Path, progress: &dyn Fn(u64)) -> std::io::Result<Converted> {
    use std::io::{BufRead, Write};
    let to_packed = match (DataFormat::of(from), DataFormat::of(to)) {
        (DataFormat::Csv, DataFormat::Packed) => true,
        (DataFormat::Packed, DataFormat::Csv) => false,
        _ => {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "one file must be packed (.bin) and the other not",
            ))
        }
    };
    let mut tmp = to.as_os_str().to_owned();
    tmp.push(".partial");
    let tmp = PathBuf::from(tmp);
    let mut out = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
    let mut done = Converted::default();
    if to_packed {
        let f = std::io::BufReader::new(bastion_core::io::open_checked(from, u64::MAX)?);
        for line in f.lines() {
            let line = line?;
            match crate::dataset::parse_fields(&line) {
                Some((pos, Some(result), Some(score))) => {
                    out.write_all(&PackedRecord::pack(&pos, score.round() as i32, f64::from(result)).0)?;
                    done.written += 1;
                    if done.written % 65_536 == 0 {
                        progress(done.written);
                    }
                }
                _ => done.skipped += u64::from(!line.trim().is_empty()),
            }
        }
    } else {
        // Record number → game number, from the index (record numbers without a usable one).
        let games: Vec<(u64, u64)> =
            read_index(from).unwrap_or_default().into_iter().map(|(g, end)| (end / RECORD_BYTES as u64, g)).collect();
        let (mut n, mut g) = (0u64, 0usize);
        let mut err = None;
        let partial = for_each_record(from, |rec| {
            while g < games.len() && games[g].0 <= n {
                g += 1;
            }
            let game = games.get(g).map_or(n, |x| x.1);
            n += 1;
            match rec.unpack() {
                Ok((pos, score, result)) if err.is_none() => {
                    if let Err(e) = writeln!(out, "{},{result},{game},{score}", pos.fen()) {
                        err = Some(e);
                    }
                    done.written += 1;
                    if done.written % 65_536 == 0 {
                        progress(done.written);
                    }
                }
                Ok(_) => {}
                Err(_) => done.skipped += 1,
            }
        })?;
        if let Some(e) = err {
            return Err(e);
        }
        done.skipped += u64::from(partial > 0);
    }
    out.flush()?;
    drop(out);
    std::fs::rename(&tmp, to)?;
    progress(done.written);
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packed::random_positions;

    #[test]
    fn conversion_goes_both_ways() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let positions = random_positions(5, 3);
        let mut csv = String::new();
        for (i, pos) in positions.iter().enumerate() {
            csv.push_str(&format!("{},{},{},{}\n", pos.fen(), [0.0, 0.5, 1.0][i % 3], i / 50, i as i32 - 99));
        }
        csv.push_str("not a fen,1,0,3\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,0.5,0\n");
        let (a, b, c) = (dir.join("a.csv"), dir.join("b.bin"), dir.join("c.csv"));
        std::fs::write(&a, &csv).unwrap();
        let there = convert(&a, &b, &|_| {}).unwrap();
        assert_eq!(there, Converted { written: positions.len() as u64, skipped: 2 });
        assert_eq!(std::fs::metadata(&b).unwrap().len(), positions.len() as u64 * RECORD_BYTES as u64);
        let back = convert(&b, &c, &|_| {}).unwrap();
        assert_eq!(back, Converted { written: positions.len() as u64, skipped: 0 });
        let text = std::fs::read_to_string(&c).unwrap();
        for (line, pos) in text.lines().zip(&positions) {
            assert!(line.starts_with(&format!("{},", pos.fen())), "{line}");
        }
        assert!(convert(&a, &c, &|_| {}).is_err(), "two CSV files");
    }
}
