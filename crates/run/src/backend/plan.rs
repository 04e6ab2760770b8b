//! What every backend does before and around its search: the top plies of a perft expanded on
//! the host into work items, transpositions among them merged, and the per-root-move
//! bookkeeping as the items' counts come in. No threads and no devices here.

use super::run_control::{Cancelled, ProgressSample};
use crate::chess::movegen::legal_moves;
use crate::chess::{Move, NybbleBoard, Position};
use crate::count::Counts;
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

/// How many paths lead from one root move to a work item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootPaths {
    /// Index of the root move in [`Plan::root_moves`].
    pub root: usize,
    /// As wide as a work unit's paths (`work::Unit::paths`): beyond 13 plies their number can
    /// pass 2^64.
    pub paths: u128,
}

/// A position whose subtree a backend counts, `remaining` plies deep, and the root moves it
/// lies below.
#[derive(Clone, Debug)]
pub struct WorkItem {
    pub position: Position,
    pub remaining: u32,
    pub roots: Vec<RootPaths>,
}

impl WorkItem {
    /// Takes over the paths of `other`, the same position at the same depth.
    pub fn absorb(&mut self, other: WorkItem) {
        for added in other.roots {
            match self.roots.iter_mut().find(|known| known.root == added.root) {
                Some(known) => known.paths += added.paths,
                None => self.roots.push(added),
            }
        }
    }

    /// The items one ply below this one, in generation order: none when the position has no
    /// legal move (its subtree has no leaves).
    pub fn children(&self) -> Vec<WorkItem> {
        legal_moves(&self.position)
            .iter()
            .map(|&m| WorkItem {
                position: self.position.play(m),
                remaining: self.remaining - 1,
                roots: self.roots.clone(),
            })
            .collect()
    }
}

/// The root's moves and the work items below them, grouped by root move in generation order.
pub struct Plan {
    pub root_moves: Vec<Move>,
    pub items: Vec<WorkItem>,
    /// Items of the last ply over the positions of the ply before it (the root: one), both
    /// as the plan holds them: merged, in a merged plan, the growth of the distinct positions
    /// per ply.
    pub growth: f64,
}

impl Plan {
    /// Plies below the deepest item: where the device takes over from the host (0 for an
    /// empty plan).
    pub fn launch_depth(&self) -> u32 {
        self.items
            .iter()
            .map(|item| item.remaining)
            .max()
            .unwrap_or(0)
    }

    /// Expands `root` (`depth` >= 1) one ply, then ply after ply while `expand_more(items,
    /// remaining)` holds for the current level and some plies remain; a level of more than
    /// `max_items` items is not taken (its making stops as soon as it is over). `Cancelled` soon
    /// after `cancel` is set: the flag is looked at before each item is expanded.
    pub fn expand(
        root: &Position,
        depth: u32,
        max_items: usize,
        cancel: &AtomicBool,
        expand_more: impl Fn(usize, u32) -> bool,
    ) -> Result<Plan, Cancelled> {
        assert!(depth >= 1, "a plan has at least the root moves");
        let root_moves: Vec<Move> = legal_moves(root).iter().copied().collect();
        let mut items: Vec<WorkItem> = root_moves
            .iter()
            .enumerate()
            .map(|(index, &m)| WorkItem {
                position: root.play(m),
                remaining: depth - 1,
                roots: vec![RootPaths {
                    root: index,
                    paths: 1,
                }],
            })
            .collect();
        let mut remaining = depth - 1;
        let mut growth = items.len() as f64;
        'levels: while remaining > 0 && expand_more(items.len(), remaining) {
            let mut next: Vec<WorkItem> = Vec::new();
            for item in &items {
                if cancel.load(Ordering::Relaxed) {
                    return Err(Cancelled);
                }
                next.extend(item.children());
                if next.len() > max_items {
                    break 'levels;
                }
            }
            growth = next.len() as f64 / items.len().max(1) as f64;
            items = next;
            remaining -= 1;
        }
        Ok(Plan {
            root_moves,
            items,
            growth,
        })
    }

    /// Expands `root` (`depth` >= 1) ply by ply, merging transpositions after every ply, until
    /// the items are `launch_depth(branching)` plies deep, where `branching` is the mean number
    /// of children per item of the last ply expanded (20 before any); a ply whose children
    /// would pass `max_items` is not taken. Every item is then a distinct position with its
    /// paths per root move. `Cancelled` soon after `cancel` is set.
    pub fn expand_merged(
        root: &Position,
        depth: u32,
        max_items: usize,
        cancel: &AtomicBool,
        launch_depth: impl Fn(f64) -> u32,
    ) -> Result<Plan, Cancelled> {
        let mut plan = Plan::expand(root, depth, max_items, cancel, |_, _| false)?;
        let mut branching = plan.items.len().max(1) as f64;
        while plan
            .items
            .first()
            .is_some_and(|item| item.remaining > launch_depth(branching).max(1))
        {
            let mut next: Vec<WorkItem> = Vec::new();
            for item in &plan.items {
                if cancel.load(Ordering::Relaxed) {
                    return Err(Cancelled);
                }
                next.extend(item.children());
                if next.len() > max_items {
                    return Ok(plan);
                }
            }
            let parents = plan.items.len().max(1) as f64;
            branching = next.len() as f64 / parents;
            plan.items = next;
            plan.merge_transpositions(cancel)?;
            plan.growth = plan.items.len() as f64 / parents;
        }
        Ok(plan)
    }

    /// Merges items that are the same position at the same depth (transpositions among the
    /// host's plies): the first keeps the paths of all, so each is searched once. Positions are
    /// compared by their exact NybbleBoard key. `Cancelled` soon after `cancel` is set, the
    /// plan then holding only the items merged so far.
    pub fn merge_transpositions(&mut self, cancel: &AtomicBool) -> Result<(), Cancelled> {
        let mut first_of: HashMap<(NybbleBoard, u32), usize> = HashMap::new();
        let mut merged: Vec<WorkItem> = Vec::with_capacity(self.items.len());
        for item in std::mem::take(&mut self.items) {
            if cancel.load(Ordering::Relaxed) {
                self.items = merged;
                return Err(Cancelled);
            }
            let key = (NybbleBoard::from_position(&item.position), item.remaining);
            match first_of.entry(key) {
                Entry::Occupied(first) => merged[*first.get()].absorb(item),
                Entry::Vacant(vacant) => {
                    vacant.insert(merged.len());
                    merged.push(item);
                }
            }
        }
        self.items = merged;
        Ok(())
    }
}

/// Per-root-move counts of a run as item counts come in, and the progress they make.
pub struct Tally {
    root_moves: Vec<Move>,
    root_counts: Vec<Counts>,
    /// Items each root move still waits for.
    items_left: Vec<usize>,
    nodes: u128,
    items_done: usize,
    items_total: usize,
}

impl Tally {
    pub fn new(plan: &Plan) -> Tally {
        let mut items_left = vec![0; plan.root_moves.len()];
        for item in &plan.items {
            for root in &item.roots {
                items_left[root.root] += 1;
            }
        }
        Tally {
            root_moves: plan.root_moves.clone(),
            root_counts: vec![Counts::default(); plan.root_moves.len()],
            items_left,
            nodes: 0,
            items_done: 0,
            items_total: plan.items.len(),
        }
    }

    /// Root moves with no item below them (every line ends before the depth): complete, with
    /// no leaves, before any search.
    pub fn complete_from_the_start(&self) -> Vec<(Move, Counts)> {
        (0..self.root_moves.len())
            .filter(|&root| self.items_left[root] == 0)
            .map(|root| (self.root_moves[root], Counts::default()))
            .collect()
    }

    /// Adds `counts` of `item`'s subtree once per path; returns the root moves it completed.
    pub fn record(&mut self, item: &WorkItem, counts: Counts) -> Vec<(Move, Counts)> {
        self.items_done += 1;
        let mut completed = Vec::new();
        for root in &item.roots {
            let added = counts.times(root.paths);
            self.nodes += added.nodes;
            self.root_counts[root.root] += added;
            self.finish_item_of(root.root, &mut completed);
        }
        completed
    }

    /// `item` is replaced by `children` (split on the host); returns the root moves this
    /// completed (when no child remains).
    pub fn split(&mut self, item: &WorkItem, children: &[WorkItem]) -> Vec<(Move, Counts)> {
        self.items_total = self.items_total + children.len() - 1;
        let mut completed = Vec::new();
        for root in &item.roots {
            self.items_left[root.root] += children.len();
            self.finish_item_of(root.root, &mut completed);
        }
        completed
    }

    /// `from` (a split's child, not yet counted) is about to be absorbed by `into`, a pending
    /// item of the same position and depth: it is no longer an item of its own. Root moves both
    /// lie below wait for one item fewer (never for none: `into` is pending).
    pub fn merged(&mut self, from: &WorkItem, into: &WorkItem) {
        self.items_total -= 1;
        for root in &from.roots {
            if into.roots.iter().any(|known| known.root == root.root) {
                self.items_left[root.root] -= 1;
            }
        }
    }

    fn finish_item_of(&mut self, root: usize, completed: &mut Vec<(Move, Counts)>) {
        self.items_left[root] -= 1;
        if self.items_left[root] == 0 {
            completed.push((self.root_moves[root], self.root_counts[root]));
        }
    }

    /// Leaves and items so far (no table statistics).
    pub fn progress(&self) -> ProgressSample {
        ProgressSample {
            nodes: self.nodes,
            tasks_done: self.items_done,
            tasks_total: self.items_total,
            tt: None,
            work: None,
        }
    }

    /// Whether every item has been counted.
    pub fn is_complete(&self) -> bool {
        self.items_left.iter().all(|&left| left == 0)
    }

    /// The counts per root move, in generation order.
    pub fn into_divide(self) -> Vec<(Move, Counts)> {
        self.root_moves.into_iter().zip(self.root_counts).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::perft;

    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

    /// Counts every item with the reference perft and returns the tally's divide.
    fn divide_by_items(plan: &Plan) -> Vec<(Move, Counts)> {
        let mut tally = Tally::new(plan);
        for item in &plan.items {
            let nodes = perft::perft(&item.position, item.remaining);
            tally.record(item, Counts::exact(nodes));
        }
        assert!(tally.is_complete());
        tally.into_divide()
    }

    fn reference_divide(root: &Position, depth: u32) -> Vec<(Move, Counts)> {
        legal_moves(root)
            .iter()
            .map(|&m| (m, Counts::exact(perft::perft(&root.play(m), depth - 1))))
            .collect()
    }

    /// The cancel flag of runs that are not cancelled.
    static NEVER: AtomicBool = AtomicBool::new(false);

    fn expand(
        root: &Position,
        depth: u32,
        max_items: usize,
        expand_more: impl Fn(usize, u32) -> bool,
    ) -> Plan {
        Plan::expand(root, depth, max_items, &NEVER, expand_more).expect("not cancelled")
    }

    fn expand_to(root: &Position, depth: u32, host_plies: u32) -> Plan {
        let last_remaining = depth - host_plies;
        expand(root, depth, usize::MAX, move |_, remaining| {
            remaining > last_remaining
        })
    }

    fn merge(plan: &mut Plan) {
        plan.merge_transpositions(&NEVER).expect("not cancelled");
    }

    #[test]
    fn items_of_every_split_give_the_reference_divide() {
        let kiwipete = Position::from_fen(KIWIPETE).expect("valid FEN");
        for (root, depth) in [(Position::startpos(), 5), (kiwipete, 4)] {
            let expected = reference_divide(&root, depth);
            for host_plies in 1..=3 {
                let plan = expand_to(&root, depth, host_plies);
                assert!(plan.items.iter().all(|i| i.remaining == depth - host_plies));
                let paths: u128 = plan.items.iter().map(|i| i.roots[0].paths).sum();
                assert_eq!(paths, perft::perft(&root, host_plies));
                assert_eq!(divide_by_items(&plan), expected, "{host_plies} host plies");

                let mut merged = expand_to(&root, depth, host_plies);
                merge(&mut merged);
                assert_eq!(divide_by_items(&merged), expected, "merged, {host_plies}");
            }
        }
    }

    #[test]
    fn merging_keeps_one_item_per_position_and_every_path() {
        // Start position perft(6) with three host plies: 8,902 paths to 5,362 positions.
        let mut plan = expand_to(&Position::startpos(), 6, 3);
        assert_eq!(plan.items.len(), 8_902);
        merge(&mut plan);
        assert_eq!(plan.items.len(), 5_362);
        let paths: u128 = plan
            .items
            .iter()
            .flat_map(|item| item.roots.iter().map(|r| r.paths))
            .sum();
        assert_eq!(paths, 8_902);
        assert!(plan.items.iter().any(|item| item.roots.len() > 1));
    }

    #[test]
    fn expansion_stops_at_the_item_limit_and_when_told() {
        let root = Position::startpos();
        // 400 positions after two plies exceed a limit of 100: the level of 20 stays.
        let capped = expand(&root, 5, 100, |_, _| true);
        assert_eq!(capped.items.len(), 20);
        let until_400 = expand(&root, 5, usize::MAX, |items, _| items < 400);
        assert_eq!(until_400.items.len(), 400);
        assert!(until_400.items.iter().all(|i| i.remaining == 3));
        // Expansion never goes below the leaves.
        let all = expand(&root, 2, usize::MAX, |_, _| true);
        assert_eq!(all.items.len(), 400);
        assert!(all.items.iter().all(|i| i.remaining == 0));
        // A cancelled expansion or merge stops with `Cancelled`.
        let cancelled = AtomicBool::new(true);
        assert!(Plan::expand(&root, 5, usize::MAX, &cancelled, |_, _| true).is_err());
        let mut plan = expand(&root, 5, usize::MAX, |items, _| items < 400);
        assert_eq!(plan.merge_transpositions(&cancelled), Err(Cancelled));
    }

    /// Splitting merged items hands every child all the paths of its parent.
    #[test]
    fn split_merged_items_keep_their_paths() {
        let root = Position::startpos();
        let mut plan = expand_to(&root, 5, 3);
        merge(&mut plan);
        let mut tally = Tally::new(&plan);
        for item in &plan.items {
            let children = item.children();
            tally.split(item, &children);
            for child in &children {
                let nodes = perft::perft(&child.position, child.remaining);
                tally.record(child, Counts::exact(nodes));
            }
        }
        assert!(tally.is_complete());
        assert_eq!(tally.into_divide(), reference_divide(&root, 5));
    }

    /// Merged ply by ply down to the launch depth, the items are the distinct positions of
    /// their ply (A083276: 400, 5,362, 72,078 after 2, 3, 4 plies) and give the reference divide.
    #[test]
    fn expanding_merged_leaves_the_distinct_positions_of_the_launch_ply() {
        let root = Position::startpos();
        for (launch, distinct) in [(3, 400), (2, 5_362)] {
            let plan = Plan::expand_merged(&root, 5, usize::MAX, &NEVER, |_| launch)
                .expect("not cancelled");
            assert_eq!(plan.items.len(), distinct);
            assert!(plan.items.iter().all(|item| item.remaining == launch));
            assert_eq!(divide_by_items(&plan), reference_divide(&root, 5));
        }
        let four = Plan::expand_merged(&root, 6, usize::MAX, &NEVER, |_| 2).expect("runs");
        assert_eq!(four.items.len(), 72_078);
        // The distinct positions grow from ply 3 (A083276: 5,362) to ply 4.
        assert_eq!(four.growth, 72_078.0 / 5_362.0);
        // The launch depth sees the last ply's branching: 20 children per root move first.
        let seen = std::sync::Mutex::new(Vec::new());
        Plan::expand_merged(&root, 4, usize::MAX, &NEVER, |branching| {
            seen.lock().unwrap().push(branching);
            2
        })
        .expect("runs");
        assert_eq!(seen.lock().unwrap()[..2], [20.0, 20.0]);
        // A ply over the item limit is not taken.
        let capped = Plan::expand_merged(&root, 6, 1_000, &NEVER, |_| 2).expect("runs");
        assert_eq!(capped.items.len(), 400);
    }

    /// Split items whose children meet another split's children are merged into them: every
    /// root move still completes with its exact count.
    #[test]
    fn split_children_merged_into_waiting_items_keep_every_path() {
        let root = Position::startpos();
        let plan = Plan::expand_merged(&root, 5, usize::MAX, &NEVER, |_| 3).expect("runs");
        let mut tally = Tally::new(&plan);
        let mut waiting: Vec<WorkItem> = Vec::new();
        for item in &plan.items {
            let children = item.children();
            tally.split(item, &children);
            for child in children {
                let key = NybbleBoard::from_position(&child.position);
                match waiting
                    .iter_mut()
                    .find(|w| NybbleBoard::from_position(&w.position) == key)
                {
                    Some(into) => {
                        tally.merged(&child, into);
                        into.absorb(child);
                    }
                    None => waiting.push(child),
                }
            }
        }
        // 5,362 positions after three plies, from 400 items split (8,902 paths).
        assert_eq!(waiting.len(), 5_362);
        assert!(!tally.is_complete());
        for item in &waiting {
            let nodes = perft::perft(&item.position, item.remaining);
            tally.record(item, Counts::exact(nodes));
        }
        assert!(tally.is_complete());
        let progress = tally.progress();
        assert_eq!(progress.tasks_done, progress.tasks_total);
        assert_eq!(tally.into_divide(), reference_divide(&root, 5));
    }

    #[test]
    fn splits_and_dead_ends_complete_their_root_moves() {
        // White to move; Qh5xf7 is mate, so that root move has no item two plies down.
        let root =
            Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
                .expect("valid FEN");
        let plan = expand_to(&root, 3, 2);
        let mut tally = Tally::new(&plan);
        let mate = tally.complete_from_the_start();
        assert_eq!(mate.len(), 1);
        assert_eq!(mate[0].0.to_string(), "h5f7");
        assert_eq!(mate[0].1, Counts::default());

        // Split every item once on the host, then count the children.
        let mut completed = mate;
        for item in &plan.items {
            let children = item.children();
            completed.extend(tally.split(item, &children));
            for child in &children {
                let nodes = perft::perft(&child.position, child.remaining);
                completed.extend(tally.record(child, Counts::exact(nodes)));
            }
        }
        assert!(tally.is_complete());
        let progress = tally.progress();
        assert_eq!(progress.tasks_done, progress.tasks_total);
        assert_eq!(completed.len(), plan.root_moves.len());
        let divide = tally.into_divide();
        assert_eq!(divide, reference_divide(&root, 3));
        completed.sort_by_key(|(m, _)| m.to_string());
        let mut sorted = divide.clone();
        sorted.sort_by_key(|(m, _)| m.to_string());
        assert_eq!(completed, sorted);
    }
}
