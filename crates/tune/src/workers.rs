//! One work queue on several threads, its results written by the calling
//! thread: the shape of the data generator's self-play and of the labeller.
//! Both hand out items from one shared counter to workers that each keep
//! their own state (players, an engine process), and both append each
//! result to one file as it arrives, so the file is only ever written from
//! one thread and a crash loses nothing finished. The first error, of a
//! worker or of the writer, stops the workers after their current item and
//! is returned; results arriving after it are dropped.

use crate::{Error, Result};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Runs `work` over the items of `todo` on up to `threads` worker threads,
/// each with the state `init` makes for it, and gives each result to `sink`
/// on the calling thread in the order they finish.
pub(crate) fn for_each_parallel<T, S, R>(
    todo: &[T],
    threads: usize,
    init: impl Fn() -> Result<S> + Sync,
    work: impl Fn(&mut S, &T) -> Result<R> + Sync,
    mut sink: impl FnMut(R) -> Result<()>,
) -> Result<()>
where
    T: Sync,
    R: Send,
{
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Result<R>>();
    let mut failure: Option<Error> = None;
    std::thread::scope(|s| {
        for _ in 0..threads.max(1).min(todo.len().max(1)) {
            let tx = tx.clone();
            let (next, stop, init, work) = (&next, &stop, &init, &work);
            s.spawn(move || {
                let mut state = match init() {
                    Ok(state) => state,
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                };
                while !stop.load(Ordering::Relaxed) {
                    let Some(item) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        return;
                    };
                    if tx.send(work(&mut state, item)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        for msg in rx {
            if failure.is_some() {
                continue;
            }
            if let Err(e) = msg.and_then(&mut sink) {
                failure = Some(e);
                stop.store(true, Ordering::Relaxed);
            }
        }
    });
    failure.map_or(Ok(()), Err)
}
