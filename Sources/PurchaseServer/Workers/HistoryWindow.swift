import Foundation
import Synchronization

/// How much of Apple's notification history the reconciler reads between two moves of its
/// checkpoint: a period sized to hold about ``targetPages`` pages, learnt from the history
/// read last and kept from one pass to the next, in the server's memory (a restart starts
/// again from an hour).
///
/// The reconciler reads its period window by window and moves the checkpoint after each
/// window read whole, so a page that fails for good loses one window's work, not the pass's.
/// A window of fixed length would not do: an hour of a large game's history is thousands of
/// pages (one failure throws them all away), and a week of a quiet one is a few. Nor would
/// the average density of the last window: a week of quiet history ending in a busy hour
/// (the server's first pass, or the one after an outage) averages out as quiet, and the
/// window that holds that hour, too long, fails again and again without being learnt from.
/// So the next window is sized by the spacing of the notifications on the last page read
/// (their `signedDate`s as the payloads claim them, unverified: it is only an estimate,
/// and nothing but the window's length depends on it), also after a window that failed;
/// without such a page, by the number of pages the window took. Either way it is at most
/// twice the last window and at least ``shortest``.
final class HistoryWindow: Sendable {
    /// The pages a window aims at by default: 1,000 notifications, a few seconds to a
    /// minute of work.
    static let defaultTargetPages = 50
    /// The notifications on a full page of Apple's history.
    static let pageSize = 20
    /// The shortest window: Apple's dates are in milliseconds, and a second of history
    /// larger than ``targetPages`` pages is read whole.
    static let shortest: TimeInterval = 1
    /// The longest window: all the history Apple serves.
    static let longest: TimeInterval = Reconciler.maximumLookback
    /// The first window of a server that has read none yet.
    static let initial: TimeInterval = 3_600

    /// The pages a window aims at.
    let targetPages: Int
    private let next: Mutex<TimeInterval>

    /// A window of `length` seconds (clamped to ``shortest``...``longest``) that learns
    /// from there to hold about `targetPages` pages.
    init(length: TimeInterval = HistoryWindow.initial, targetPages: Int = HistoryWindow.defaultTargetPages) {
        self.targetPages = max(targetPages, 1)
        self.next = Mutex(Self.clamped(length))
    }

    /// The length of the next window, in seconds.
    var length: TimeInterval { next.withLock { $0 } }

    /// Learns from a window of `length` seconds of which `pages` pages were read (all of
    /// them, unless it `failed`), the last of them with notifications `spacing` seconds
    /// apart on average (`nil` when no page read had two dated notifications). With a
    /// spacing, the next window holds ``targetPages`` pages at that spacing; without one,
    /// a window read whole is scaled by ``targetPages`` over `pages`, and a failed one
    /// taught nothing. At most twice `length`.
    func record(length: TimeInterval, pages: Int, spacing: TimeInterval?, failed: Bool = false) {
        let learnt: TimeInterval
        if let spacing {
            learnt = spacing * Double(targetPages * Self.pageSize)
        } else if failed {
            return
        } else {
            learnt = length * Double(targetPages) / Double(max(pages, 1))
        }
        let bounded = Self.clamped(min(learnt, 2 * length))
        next.withLock { $0 = bounded }
    }

    /// The length to read a window of `length` seconds from `start` again with, when the
    /// page just read shows that it holds far more than ``targetPages`` pages: by the
    /// `oldest` notification seen (epoch milliseconds) and their `spacing`, the stretch
    /// from `oldest` to the window's end holds over twice ``targetPages`` pages. The new
    /// length is the stretch before `oldest` and ``targetPages`` pages at that spacing, and
    /// is also the next window's. `nil` (read on) when the window holds less by that
    /// estimate. The reconciler cuts a window once at most.
    ///
    /// This is what keeps a quiet stretch followed by a busy one (a launch, the first pass
    /// of a week's lookback) from being read in one window of thousands of pages: windows
    /// over quiet history double, and the one that reaches the busy stretch is cut to end
    /// shortly into it. With history listed oldest first (as the emulator lists it), the
    /// first page of that window shows where the busy stretch starts.
    func cut(length: TimeInterval, start: Int64, oldest: Int64, spacing: TimeInterval) -> TimeInterval? {
        let quiet = min(max(Double(oldest.subtractingReportingOverflow(start).partialValue) / 1_000, 0), length)
        let pageLength = spacing * Double(Self.pageSize)
        guard pageLength > 0, (length - quiet) / pageLength > Double(2 * targetPages) else { return nil }
        let shorter = Self.clamped(quiet + pageLength * Double(targetPages))
        guard shorter < length else { return nil }
        next.withLock { $0 = shorter }
        return shorter
    }

    /// The average spacing, in seconds, of notifications signed at `dates` (epoch
    /// milliseconds, in any order): the span over the gaps between them, at least a
    /// millisecond in all; `nil` for fewer than two.
    static func spacing(of dates: [Int64]) -> TimeInterval? {
        guard dates.count >= 2, let first = dates.min(), let last = dates.max() else { return nil }
        let span = last.subtractingReportingOverflow(first)
        let milliseconds = span.overflow ? Double(Int64.max) : Double(max(span.partialValue, 1))
        return milliseconds / 1_000 / Double(dates.count - 1)
    }

    private static func clamped(_ length: TimeInterval) -> TimeInterval {
        length.isFinite ? min(max(length, shortest), longest) : longest
    }
}
