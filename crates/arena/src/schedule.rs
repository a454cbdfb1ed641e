//! The game schedule: which players meet, with which colours and opening, in
//! what order. It depends only on the settings and the seed, so a resumed or
//! sharded match plays exactly the games an uninterrupted one would.

use movegen::SplitMix64;

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// Game number, from 1.
    pub game: usize,
    /// Round, from 1.
    pub round: usize,
    /// Pair number (two games of one opening with colours swapped), from 1.
    pub pair: usize,
    /// Index into the opening list.
    pub opening: usize,
    /// Index of White in the player list.
    pub white: usize,
    /// Index of Black in the player list.
    pub black: usize,
}

impl GameSpec {
    /// Game `game` of two players standing alone, outside any schedule: its
    /// own round 1 and pair `game`, the first opening, player 0 White and
    /// player 1 Black (self-play data games, one-game tests).
    pub fn single(game: usize) -> GameSpec {
        GameSpec {
            game,
            round: 1,
            pair: game,
            opening: 0,
            white: 0,
            black: 1,
        }
    }
}

/// How players meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Everyone plays everyone.
    RoundRobin,
    /// The first player plays every other.
    Gauntlet,
}

/// Settings of a schedule.
#[derive(Clone, Debug)]
pub struct ScheduleSpec {
    /// Number of players.
    pub players: usize,
    /// Total games (`None`: `rounds` full rounds).
    pub games: Option<usize>,
    /// Rounds (each round plays every pairing once, or twice with `repeat`).
    pub rounds: usize,
    /// Play every opening twice with colours swapped, as a pair.
    pub repeat: bool,
    /// Pairing format.
    pub format: Format,
    /// Number of openings available.
    pub openings: usize,
    /// Pick openings in a seeded random order instead of file order.
    pub random_openings: bool,
    /// Seed.
    pub seed: u64,
}

/// Builds the whole schedule.
pub fn build(spec: &ScheduleSpec) -> Vec<GameSpec> {
    let mut pairings = Vec::new();
    match spec.format {
        Format::RoundRobin => {
            for a in 0..spec.players {
                for b in a + 1..spec.players {
                    pairings.push((a, b));
                }
            }
        }
        Format::Gauntlet => {
            for b in 1..spec.players {
                pairings.push((0, b));
            }
        }
    }
    if pairings.is_empty() || spec.openings == 0 {
        return Vec::new();
    }
    let mut order: Vec<usize> = (0..spec.openings).collect();
    if spec.random_openings {
        let mut rng = SplitMix64::new(spec.seed);
        for i in (1..order.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
    }
    let per_pairing = if spec.repeat { 2 } else { 1 };
    let wanted = spec
        .games
        .unwrap_or(spec.rounds * pairings.len() * per_pairing);
    let mut out = Vec::with_capacity(wanted);
    let mut pair = 0;
    let mut round = 0;
    while out.len() < wanted {
        round += 1;
        for (k, &(a, b)) in pairings.iter().enumerate() {
            if out.len() >= wanted {
                break;
            }
            pair += 1;
            // One opening per pair; consecutive rounds move along the book.
            let opening = order[((round - 1) * pairings.len() + k) % order.len()];
            // Alternate who starts as White from round to round.
            let (first, second) = if round % 2 == 1 { (a, b) } else { (b, a) };
            for g in 0..per_pairing {
                if out.len() >= wanted {
                    break;
                }
                let (white, black) = if g == 0 {
                    (first, second)
                } else {
                    (second, first)
                };
                out.push(GameSpec {
                    game: out.len() + 1,
                    round,
                    pair,
                    opening,
                    white,
                    black,
                });
            }
        }
    }
    out
}

/// The games of shard `index` (1-based) of `count`: every `count`-th pair,
/// so a pair never straddles two shards.
pub fn shard(games: Vec<GameSpec>, index: usize, count: usize) -> Vec<GameSpec> {
    games
        .into_iter()
        .filter(|g| (g.pair - 1) % count == index - 1)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(players: usize, games: Option<usize>, rounds: usize, format: Format) -> ScheduleSpec {
        ScheduleSpec {
            players,
            games,
            rounds,
            repeat: true,
            format,
            openings: 5,
            random_openings: true,
            seed: 7,
        }
    }

    #[test]
    fn pairs_share_an_opening_with_colours_swapped() {
        let s = build(&spec(2, Some(10), 1, Format::RoundRobin));
        assert_eq!(s.len(), 10);
        for p in s.chunks(2) {
            assert_eq!(p[0].opening, p[1].opening);
            assert_eq!((p[0].white, p[0].black), (p[1].black, p[1].white));
            assert_eq!(p[0].pair, p[1].pair);
        }
        assert_eq!(
            s,
            build(&spec(2, Some(10), 1, Format::RoundRobin)),
            "deterministic"
        );
    }

    #[test]
    fn round_robin_and_gauntlet_sizes() {
        assert_eq!(
            build(&spec(4, None, 2, Format::RoundRobin)).len(),
            2 * 6 * 2
        );
        let g = build(&spec(4, None, 1, Format::Gauntlet));
        assert_eq!(g.len(), 3 * 2);
        assert!(g.iter().all(|x| x.white == 0 || x.black == 0));
    }

    #[test]
    fn shards_partition_the_schedule() {
        let all = build(&spec(3, Some(40), 1, Format::RoundRobin));
        let mut union: Vec<_> = (1..=3).flat_map(|i| shard(all.clone(), i, 3)).collect();
        union.sort_by_key(|g| g.game);
        assert_eq!(union, all);
    }
}
