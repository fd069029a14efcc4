"""The positions the generator starts from, per game: ordinary ones to play random lines
on, and weird ones at the edge of each notation."""

CHESS_FENS = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/8/4k3/8/8/4K3/8/8 w - - 0 1",
    "8/8/4k3/8/8/4K3/4R3/8 w - - 99 80",
    "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
    "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
]
SHOGI_SFENS = [
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "8k/9/9/9/9/9/9/9/4K2R1 b G 1",
    "+B+R2K2+P1/4+P2+P1/+P+P+P+P3+P1/9/9/9/6k2/9/9 b BGSNLPgsnlp 1",
    "4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
    "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/9/LNSGKGSNL b RBrb 1",
    "8k/8P/7G1/9/9/9/9/9/K8 w - 1",
    "4k4/9/9/9/9/9/9/9/4K4 b 2P 1",
]

# Positions at the edge of the notations, most of them invalid: each must be refused with one
# error, or accepted and then played legally.
WEIRD = {
    "chess": [
        "fen 4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", "fen 4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
        "fen 4k3/8/8/8/8/8/8/8 w - - 0 1", "fen 4k3/8/8/8/8/8/8/4KK2 w - - 0 1",
        "fen P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "fen 4k3/8/8/8/8/8/4R3/4K3 w - - 0 1",
        "fen k7/8/8/8/8/8/QQQQQQQQ/QQQQQQQK w - - 0 1", "fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "fen 4k3/8/8/8/8/8/8/4K3 b - - 65535 65535",
        "fen 4k3/8/8/8/8/8/8/4K3 w - - 150 1", "fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra",
        "fen 4k3/8/8/8/8/8/8/4K3 W - - 0 1", "fen 4k3/8/8/8/8/8/8/4K3 w - - 0",
        "fen 4k3/8/8/2b5/3Pp3/8/8/4K3 b - d3 0 1", "fen 3k4/8/8/K1pP3r/8/8/8/8 w - c6 0 1",
        "fen k7/8/8/8/8/8/8/K6R w K - 0 1", "fen 4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        "fen r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1", "fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 moves",
        "fen 9/8/8/8/8/8/8/8 w - - 0 1", "fen 4k3/8/8/8/8/8/8/4K3/8 w - - 0 1",
        "fen 4k3/7/8/8/8/8/8/4K3 w - - 0 1", "fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 1",
        "fen kq6/8/8/8/8/8/8/6NK b - - 0 1",
    ],
    "shogi": [
        "sfen 4k4/9/9/9/9/9/9/9/4K4 b 19P 1", "sfen 4k4/9/9/9/9/9/9/9/4K4 b K 1",
        "sfen 4k4/9/9/9/9/9/9/9/4+K4 b - 1", "sfen 9/9/9/9/9/9/9/9/9 b - 1",
        "sfen 4k4/9/9/9/9/9/9/9/4K4 w - 0", "sfen 4k4/9/9/9/9/9/9/9/4K4 b - 99999999999",
        "sfen 4k4/4G4/9/9/9/9/9/9/4K4 w - 1", "sfen 4k4/4G4/9/9/9/9/9/9/4K4 b - 1",
        "sfen 4k4/9/9/9/9/9/9/9/4K4 b 0P 1", "sfen 4k4/9/9/9/9/9/9/9/4K4 b P0 1",
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 40P 1",
        "sfen 4k4/9/9/9/9/9/9/9/4K4 b 18p 1", "sfen 4k4/9/9/9/9/9/9/9/4K4 b 2P2P 1",
        "sfen P3k4/9/9/9/9/9/9/9/4K4 b - 1", "sfen 4k4/9/9/9/9/9/9/9/N3K4 w - 1",
        "sfen 4k4/9/9/9/9/9/9/9/4K4 b - 1 2", "sfen 4k4/9/9/9/9/9/9/9/4K4",
        "sfen 4k4/9/9/9/9/9/9/9/4K4 b rb2g2s2n2l9p 1", "sfen 4k4/9/9/9/9/9/9/9/4K4 b - -1",
        "sfen 8k/7+P+P/9/9/9/9/9/9/K8 w - 1", "sfen k8/9/9/9/9/9/9/9/8K b 10G 1",
        "sfen 4k4/9/9/9/9/9/9/9/9 b - 1", "sfen 4k4/9/9/9/9/9/9/9/4K4 b - 1 moves",
    ],
    "foursquare": [
        "fen bbbb/4/4/wwww b 99999999999", "fen bbbbb/4/4/wwww b", "fen 4/4/4/4 b",
        "fen bbbb/4/4/wwww w -1", "fen b3/4/4/w3 b", "fen bbbb/bbbb/wwww/wwww b",
        "fen w3/4/4/3b b", "fen bbbb/4/4/wwww b 4294967295", "fen bbbb/4/4/wwww", "fen bbbb/4/4 b",
        "fen b3/4/4/3w w 0", "fen bbbb/4/4/wwww b 0 0", "fen 5/4/4/4 b", "fen bbbb/4/4/wwwx b",
    ],
    "junqi": [
        "setup S:adgicegebigckhfdjhjkfljhi", "setup S:- E:- N:- W:-", "setup first N",
        "setup S:adgicegebigckhfdjhjkfljhi E:adgicegebigckhfdjhjkfljhi N:adgicegebigckhfdjhjkfljhi "
        "W:adgicegebigckhfdjhjkfljhi first X",
        "setup S:adgicegebigckhfdjhjkfljhi E:adgicegebigckhfdjhjkfljhi N:adgicegebigckhfdjhjkfljhi "
        "W:adgicegebigckhfdjhjkfljhi first W",
        "setup S:adgicegebigckhfdjhjkfljhi E:adgicegebigckhfdjhjkfljhi N:adgicegebigckhfdjhjkfljhi "
        "W:adgicegebigckhfdjhjkfljhi S:adgicegebigckhfdjhjkfljhi",
        "fen adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi"
        "/adgice1g1ebi1gck1h1fdjhjkfljhi/9 X 0 0,0,0,0 - -",
        "fen adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi"
        "/adgice1g1ebi1gck1h1fdjhjkfljhi/9 S 99999 9,9,9,9 - -",
        "fen adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi"
        "/adgice1g1ebi1gck1h1fdjhjkfljhi/9 S 0 0,0,0,0 SEN -",
        "fen adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi"
        "/adgice1g1ebi1gck1h1fdjhjkfljhi/9 S 0 0,0,0,0 SENW SENW",
        "fen adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi"
        "/adgice1g1ebi1gck1h1fdjhjkfljhi/Sa8 S 0 0,0,0,0 - -",
        "fen adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi"
        "/30/9 S 0 0,0,0,0 - -",
        "fen adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi"
        "/adgice1g1ebi1gck1h1fdjhjkfljhi/9 N 0 0,0,0,0 S -",
        "fen adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi"
        "/adgice1g1ebi1gck1h1fdjhjkfljhi/9 S 0 0,0,0 - -",
        "fen adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi"
        "/adgice1g1ebi1gck1h1fdjhjkfljhi/9 S -1 0,0,0,0 - -",
        "fen adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi"
        "/adgice1g1ebi1gck1h1fdjhjkfljhi/9 E 0 0,0,0,0 E -",
        "fen 1dgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi"
        "/adgice1g1ebi1gck1h1fdjhjkfljhi/9 S 0 0,0,0,0 - -",
        "fen adgice1g1ebi1gck1h1fdjhjk1ljhi/adgice1g1ebi1gck1h1fdjhjkfljhi/adgice1g1ebi1gck1h1fdjhjkfljhi"
        "/adgice1g1ebi1gck1h1fdjhjkfljhi/9 S 0 0,0,0,0 - -",
        "fen 30/30/30/30/9 S 0 0,0,0,0 - -",
        "fen 30/30/30/30/Sl8 S 0 0,0,0,0 - -",
    ],
}

