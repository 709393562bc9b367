//! The checksum every Syzygy table file ends with, recomputed from its contents.
//!
//! The Syzygy generator hashes the file (without its last 16 bytes) in chunks of
//! 16 MiB with CityHashCrc256 and hashes the chunks' 32-byte results with
//! CityHashCrc128; the 16 bytes of that are appended to the file. Both are from
//! CityHash 1.0 (Pike and Alakuijala, Google, MIT licence), written again here with
//! a software CRC-32C for the hardware instruction the original uses.

const K0: u64 = 0xc3a5_c85c_97cb_3127;
const K1: u64 = 0xb492_b66f_be98_f273;
const K2: u64 = 0x9ae1_6a3b_2f90_404f;
const K3: u64 = 0xc949_d7c7_509e_6557;

/// Bytes hashed per chunk before the chunk results are hashed together.
const CHUNK: usize = 1 << 24;

fn fetch64(s: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(s[at..at + 8].try_into().expect("8 bytes"))
}

fn fetch32(s: &[u8], at: usize) -> u64 {
    u32::from_le_bytes(s[at..at + 4].try_into().expect("4 bytes")) as u64
}

fn shift_mix(v: u64) -> u64 {
    v ^ (v >> 47)
}

fn hash_len16(u: u64, v: u64) -> u64 {
    const MUL: u64 = 0x9ddf_ea08_eb38_2d69;
    let mut a = (u ^ v).wrapping_mul(MUL);
    a ^= a >> 47;
    let mut b = (v ^ a).wrapping_mul(MUL);
    b ^= b >> 47;
    b.wrapping_mul(MUL)
}

fn hash_len0to16(s: &[u8]) -> u64 {
    let len = s.len();
    if len > 8 {
        let a = fetch64(s, 0);
        let b = fetch64(s, len - 8);
        return hash_len16(a, b.wrapping_add(len as u64).rotate_right(len as u32)) ^ b;
    }
    if len >= 4 {
        let a = fetch32(s, 0);
        return hash_len16((len as u64).wrapping_add(a << 3), fetch32(s, len - 4));
    }
    if len > 0 {
        let y = s[0] as u32 + ((s[len >> 1] as u32) << 8);
        let z = len as u32 + ((s[len - 1] as u32) << 2);
        return shift_mix((y as u64).wrapping_mul(K2) ^ (z as u64).wrapping_mul(K3)).wrapping_mul(K2);
    }
    K2
}

fn weak_hash32(s: &[u8], at: usize, mut a: u64, mut b: u64) -> (u64, u64) {
    let (w, x, y, z) = (fetch64(s, at), fetch64(s, at + 8), fetch64(s, at + 16), fetch64(s, at + 24));
    a = a.wrapping_add(w);
    b = b.wrapping_add(a).wrapping_add(z).rotate_right(21);
    let c = a;
    a = a.wrapping_add(x).wrapping_add(y);
    b = b.wrapping_add(a.rotate_right(44));
    (a.wrapping_add(z), b.wrapping_add(c))
}

fn city_murmur(s: &[u8], seed: (u64, u64)) -> (u64, u64) {
    let len = s.len();
    let (mut a, mut b) = seed;
    let (mut c, mut d);
    if len <= 16 {
        a = shift_mix(a.wrapping_mul(K1)).wrapping_mul(K1);
        c = b.wrapping_mul(K1).wrapping_add(hash_len0to16(s));
        d = shift_mix(a.wrapping_add(if len >= 8 { fetch64(s, 0) } else { c }));
    } else {
        c = hash_len16(fetch64(s, len - 8).wrapping_add(K1), a);
        d = hash_len16(b.wrapping_add(len as u64), c.wrapping_add(fetch64(s, len - 16)));
        a = a.wrapping_add(d);
        let mut at = 0;
        let mut l = len as i64 - 16;
        while l > 0 {
            a ^= shift_mix(fetch64(s, at).wrapping_mul(K1)).wrapping_mul(K1);
            a = a.wrapping_mul(K1);
            b ^= a;
            c ^= shift_mix(fetch64(s, at + 8).wrapping_mul(K1)).wrapping_mul(K1);
            c = c.wrapping_mul(K1);
            d ^= c;
            at += 16;
            l -= 16;
        }
    }
    let a2 = hash_len16(a, c);
    let b2 = hash_len16(d, b);
    (a2 ^ b2, hash_len16(b2, a2))
}

fn city_hash128_with_seed(s: &[u8], seed: (u64, u64)) -> (u64, u64) {
    let mut len = s.len();
    if len < 128 {
        return city_murmur(s, seed);
    }
    let (mut x, mut y) = seed;
    let mut z = (len as u64).wrapping_mul(K1);
    let mut v = (0u64, 0u64);
    v.0 = (y ^ K1).rotate_right(49).wrapping_mul(K1).wrapping_add(fetch64(s, 0));
    v.1 = v.0.rotate_right(42).wrapping_mul(K1).wrapping_add(fetch64(s, 8));
    let mut w = (y.wrapping_add(z).rotate_right(35).wrapping_mul(K1).wrapping_add(x), 0u64);
    w.1 = x.wrapping_add(fetch64(s, 88)).rotate_right(53).wrapping_mul(K1);
    let mut at = 0;
    loop {
        for _ in 0..2 {
            x = x.wrapping_add(y).wrapping_add(v.0).wrapping_add(fetch64(s, at + 8)).rotate_right(37).wrapping_mul(K1);
            y = y.wrapping_add(v.1).wrapping_add(fetch64(s, at + 48)).rotate_right(42).wrapping_mul(K1);
            x ^= w.1;
            y = y.wrapping_add(v.0).wrapping_add(fetch64(s, at + 40));
            z = z.wrapping_add(w.0).rotate_right(33).wrapping_mul(K1);
            v = weak_hash32(s, at, v.1.wrapping_mul(K1), x.wrapping_add(w.0));
            w = weak_hash32(s, at + 32, z.wrapping_add(w.1), y.wrapping_add(fetch64(s, at + 16)));
            std::mem::swap(&mut z, &mut x);
            at += 64;
        }
        len -= 128;
        if len < 128 {
            break;
        }
    }
    x = x.wrapping_add(v.0.wrapping_add(z).rotate_right(49).wrapping_mul(K0));
    z = z.wrapping_add(w.0.rotate_right(37).wrapping_mul(K0));
    let mut done = 0;
    while done < len {
        done += 32;
        let tail = at + len - done;
        y = x.wrapping_add(y).rotate_right(42).wrapping_mul(K0).wrapping_add(v.1);
        w.0 = w.0.wrapping_add(fetch64(s, tail + 16));
        x = x.wrapping_mul(K0).wrapping_add(w.0);
        z = z.wrapping_add(w.1).wrapping_add(fetch64(s, tail));
        w.1 = w.1.wrapping_add(v.0);
        v = weak_hash32(s, tail, v.0.wrapping_add(z), v.1);
    }
    x = hash_len16(x, v.0);
    y = hash_len16(y.wrapping_add(z), w.0);
    (hash_len16(x.wrapping_add(v.1), w.1).wrapping_add(y), hash_len16(x.wrapping_add(w.1), y.wrapping_add(v.1)))
}

fn city_hash128(s: &[u8]) -> (u64, u64) {
    let len = s.len();
    if len >= 16 {
        city_hash128_with_seed(&s[16..], (fetch64(s, 0) ^ K3, fetch64(s, 8)))
    } else if len >= 8 {
        city_hash128_with_seed(&[], (fetch64(s, 0) ^ (len as u64).wrapping_mul(K0), fetch64(s, len - 8) ^ K1))
    } else {
        city_hash128_with_seed(s, (K0, K1))
    }
}

/// CRC-32C table (reflected polynomial 0x82F63B78).
const CRC_TABLE: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 { (c >> 1) ^ 0x82F6_3B78 } else { c >> 1 };
            k += 1;
        }
        t[i] = c;
        i += 1;
    }
    t
};

/// What SSE 4.2's `crc32` instruction does to 8 bytes: CRC-32C without the
/// usual inversions, on the low 32 bits of `crc`.
fn crc32_u64(crc: u64, v: u64) -> u64 {
    let mut c = crc as u32;
    for b in v.to_le_bytes() {
        c = CRC_TABLE[((c ^ b as u32) & 0xff) as usize] ^ (c >> 8);
    }
    c as u64
}

fn city_hash_crc256_long(s: &[u8], seed: u32) -> [u64; 4] {
    let mut len = s.len();
    let mut result = [0u64; 4];
    let mut a = fetch64(s, 56).wrapping_add(K0);
    let mut b = fetch64(s, 96).wrapping_add(K0);
    let mut c = hash_len16(b, len as u64);
    result[0] = c;
    let mut d = fetch64(s, 120).wrapping_mul(K0).wrapping_add(len as u64);
    result[1] = d;
    let mut e = fetch64(s, 184).wrapping_add(seed as u64);
    let (mut f, mut g, mut h, mut i, mut j) = (seed as u64, 0u64, 0u64, 0u64, 0u64);
    let mut t = c.wrapping_add(d);
    let mut at = 0;
    let mut chunk = |at: &mut usize, mul: u64, z: u32| {
        let old_a = a;
        a = b.rotate_right(41 ^ z).wrapping_mul(mul).wrapping_add(fetch64(s, *at));
        b = c.rotate_right(27 ^ z).wrapping_mul(mul).wrapping_add(fetch64(s, *at + 8));
        c = d.rotate_right(41 ^ z).wrapping_mul(mul).wrapping_add(fetch64(s, *at + 16));
        d = e.rotate_right(33 ^ z).wrapping_mul(mul).wrapping_add(fetch64(s, *at + 24));
        e = t.rotate_right(25 ^ z).wrapping_mul(mul).wrapping_add(fetch64(s, *at + 32));
        t = old_a;
        f = crc32_u64(f, a);
        g = crc32_u64(g, b);
        h = crc32_u64(h, c);
        i = crc32_u64(i, d);
        j = crc32_u64(j, e);
        *at += 40;
    };
    let iters = len / 240;
    len -= iters * 240;
    for _ in 0..iters {
        for _ in 0..3 {
            chunk(&mut at, 1, 1);
            chunk(&mut at, K0, 0);
        }
    }
    while len >= 40 {
        chunk(&mut at, K0, 0);
        len -= 40;
    }
    if len > 0 {
        at = at + len - 40;
        chunk(&mut at, K0, 0);
    }
    j = j.wrapping_add(i << 32);
    a = hash_len16(a, j);
    h = h.wrapping_add(g << 32);
    b = b.wrapping_add(h);
    c = hash_len16(c, f).wrapping_add(i);
    d = hash_len16(d, e.wrapping_add(result[0]));
    j = j.wrapping_add(e);
    i = i.wrapping_add(hash_len16(h, t));
    e = hash_len16(a, d).wrapping_add(j);
    f = hash_len16(b, c).wrapping_add(a);
    g = hash_len16(j, i).wrapping_add(c);
    result[0] = e.wrapping_add(f).wrapping_add(g).wrapping_add(h);
    a = shift_mix(a.wrapping_add(g).wrapping_mul(K0)).wrapping_mul(K0).wrapping_add(b);
    result[1] = result[1].wrapping_add(a).wrapping_add(result[0]);
    a = shift_mix(a.wrapping_mul(K0)).wrapping_mul(K0).wrapping_add(c);
    result[2] = a.wrapping_add(result[1]);
    a = shift_mix(a.wrapping_add(e).wrapping_mul(K0)).wrapping_mul(K0);
    result[3] = a.wrapping_add(result[2]);
    result
}

fn city_hash_crc256(s: &[u8]) -> [u64; 4] {
    if s.len() >= 240 {
        city_hash_crc256_long(s, 0)
    } else {
        let mut buf = [0u8; 240];
        buf[..s.len()].copy_from_slice(s);
        city_hash_crc256_long(&buf, !(s.len() as u32))
    }
}

fn city_hash_crc128(s: &[u8]) -> (u64, u64) {
    if s.len() <= 900 {
        city_hash128(s)
    } else {
        let r = city_hash_crc256(s);
        (r[2], r[3])
    }
}

/// The checksum of a table file's contents (`data` without its last 16 bytes,
/// a multiple of 64 bytes long), as the 16 bytes the generator appends.
pub fn table_checksum(data: &[u8]) -> [u8; 16] {
    finish(data.chunks(CHUNK).map(city_hash_crc256).collect())
}

/// [`table_checksum`] of the file at `path`, read one 16 MiB chunk at a time; the
/// file's last 16 bytes (its stored checksum) are left out.
pub fn file_checksum(path: &std::path::Path) -> std::io::Result<[u8; 16]> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    let len = file.metadata()?.len() & !0x3f;
    let mut chunks = Vec::new();
    let mut buf = Vec::new();
    let mut left = len;
    while left > 0 {
        let n = left.min(CHUNK as u64);
        buf.resize(n as usize, 0);
        file.read_exact(&mut buf)?;
        chunks.push(city_hash_crc256(&buf));
        left -= n;
    }
    Ok(finish(chunks))
}

fn finish(chunks: Vec<[u64; 4]>) -> [u8; 16] {
    let results: Vec<u8> = chunks.iter().flatten().flat_map(|v| v.to_le_bytes()).collect();
    let (lo, hi) = city_hash_crc128(&results);
    let mut out = [0u8; 16];
    out[..8].copy_from_slice(&lo.to_le_bytes());
    out[8..].copy_from_slice(&hi.to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32c_matches_the_standard_check_value() {
        // CRC-32C of "123456789" with the usual inversions is 0xE3069283.
        let mut c = !0u32;
        for b in b"123456789" {
            c = CRC_TABLE[((c ^ *b as u32) & 0xff) as usize] ^ (c >> 8);
        }
        assert_eq!(!c, 0xE306_9283);
    }

    #[test]
    fn any_changed_byte_changes_the_checksum() {
        let data: Vec<u8> = (0..4096u32).map(|i| (i * 7 + i / 13) as u8).collect();
        let sum = table_checksum(&data);
        for at in [0, 100, 2047, 4095] {
            let mut d = data.clone();
            d[at] ^= 1;
            assert_ne!(table_checksum(&d), sum, "byte {at}");
        }
    }
}
