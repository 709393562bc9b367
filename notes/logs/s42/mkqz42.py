"""Writes a copy of a piece-only network with zero threat rows (session 42's speed control).

Usage: python3 mkqz42.py IN.nnue OUT.nnue
The file layout is `Network::to_bytes` of threats41.diff: magic (8 bytes), inputs and hidden
(u32 each), the input rows, then the rest unchanged; 2,304 inputs mean a network with threats.
"""
import struct
import sys

THREAT_INPUTS = 2304

src, dst = sys.argv[1], sys.argv[2]
b = open(src, "rb").read()
inputs, hidden = struct.unpack("<II", b[8:16])
if inputs != 768:
    sys.exit(f"{src}: {inputs} inputs, expected a piece-only network (768)")
end = 16 + 2 * inputs * hidden
out = b[:8] + struct.pack("<II", THREAT_INPUTS, hidden) + b[16:end] + bytes(2 * (THREAT_INPUTS - inputs) * hidden) + b[end:]
open(dst, "wb").write(out)
print(f"{dst}: {len(out)} bytes")
