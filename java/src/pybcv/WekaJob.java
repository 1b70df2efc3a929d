package pybcv;

import java.io.File;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One design of {@link WekaBatch} running in a worker thread, so that the
 * caller can give up on it while a fit runs: on a per-fit time limit, on the
 * stop file (Ctrl-C in Python, r_bridge/session.py), or when R is
 * interrupted (R/inst/weka_jvm.R calls {@link #cancel} from its on.exit).
 *
 * <p>The caller polls: {@link #await} waits at most the given milliseconds
 * and returns {@link #RUNNING}, {@link #DONE} or {@link #FAILED}; while it
 * waits it checks the stop file and the time limit of the fit in progress
 * every {@link #POLL_MS} ms.  Between two awaits R runs its own interrupt
 * checks, which is how Ctrl-C in R (the R package, reticulate) reaches a
 * design inside the JVM.
 *
 * <p>A fit that outlasts its limit, or that runs when the job is stopped, is
 * abandoned, not killed: the job fails at once (naming the fold), the worker
 * thread is interrupted (Weka code that checks {@code Thread.interrupted}
 * stops) and, being a daemon, finishes that one fit in the background and
 * then ends without touching the job.  {@code Thread.stop} would end it at
 * once, but it releases the thread's locks at an arbitrary point, leaving
 * whatever the fit shared (Weka's static caches, the JVM's class loading)
 * possibly inconsistent for every later fit in this JVM, and JDK 20 and later
 * no longer support it; the abandoned fit costs CPU time until it ends, never
 * a wrong result.  {@link #abandonedRunning} counts such fits still running.
 */
public final class WekaJob implements Runnable {

    public static final int RUNNING = 0;
    public static final int DONE = 1;
    public static final int FAILED = 2;

    /** How often (ms) {@link #await} checks the stop file and the time limit. */
    static final long POLL_MS = 50;

    private static final AtomicInteger ABANDONED = new AtomicInteger();

    private final WekaBatch batch;
    private final String className;
    private final String[] options;
    private final int[] idx;
    private final int[] ntr;
    private final int[] nte;
    private final File stop;
    private final double limit;
    private final long limitNanos;
    private final int[] out;
    private final CountDownLatch finished = new CountDownLatch(1);
    private final Thread worker;

    private volatile int state = RUNNING;
    private volatile boolean abandoned = false;
    private volatile int fold = 0;            // 1-based fold being fitted (0: none yet)
    private volatile long fitStart = 0L;
    /** 0: no fit running, 1: a fit running, 2: the running fit was abandoned. */
    private final AtomicInteger fitState = new AtomicInteger();
    private int errorFold = 0;
    private String errorMessage = "";

    WekaJob(WekaBatch batch, String className, String[] options, int[] idx, int[] ntr, int[] nte,
            String stopFile, double timeoutSeconds) {
        this.batch = batch;
        this.className = className;
        this.options = options == null ? new String[0] : options.clone();
        this.idx = idx;
        this.ntr = ntr;
        this.nte = nte;
        this.stop = stopFile == null || stopFile.isEmpty() ? null : new File(stopFile);
        this.limit = timeoutSeconds > 0 && !Double.isInfinite(timeoutSeconds) ? timeoutSeconds : 0;
        this.limitNanos = (long) (this.limit * 1e9);
        int total = 0;
        for (int f = 0; f < nte.length; f++) {
            total += nte[f];
        }
        this.out = new int[total];
        this.worker = new Thread(this, "pybcv-weka-design");
        this.worker.setDaemon(true);          // never keeps the JVM (R) from exiting
    }

    void begin() {
        worker.start();
    }

    /** Fits still running that a job gave up on (a time limit, a stop). */
    public static int abandonedRunning() {
        return ABANDONED.get();
    }

    /** The time limit as the message gives it: 0.5, 2, 0.01, 1.0E-9 (no run of zeros). */
    static String seconds(double s) {
        if (s >= 1e-4 && s < 1e9) {
            return BigDecimal.valueOf(s).stripTrailingZeros().toPlainString();
        }
        return Double.toString(s);
    }

    /** The message of a fit that outlasted the time limit. */
    public static String timeoutMessage(double s) {
        return "the fit took longer than the time limit of " + seconds(s) + " s (timeout); "
               + "Java finishes the abandoned fit in the background";
    }

    /** Settles the job once; false when it was settled before. */
    private synchronized boolean settle(int newState, int atFold, String message) {
        if (state != RUNNING) {
            return false;
        }
        errorFold = atFold;
        errorMessage = message;
        state = newState;
        finished.countDown();
        return true;
    }

    /** Gives up on the design at the fold in progress (its fit is abandoned). */
    private void abandon(String message, boolean byStop) {
        int f = Math.max(fold, 1);
        if (settle(FAILED, f, message)) {
            abandoned = true;
            ABANDONED.incrementAndGet();
            boolean duringFit = fitState.compareAndSet(1, 2);
            if (!duringFit) {
                ABANDONED.decrementAndGet();       // no fit was running
            }
            if (byStop) {
                WekaBatch.noteStop((f - 1) + "/" + ntr.length
                                   + (duringFit ? " during the fit of fold " + f : ""));
            }
            worker.interrupt();
        }
    }

    @Override
    public void run() {
        int off = 0;
        int pos = 0;
        try {
            for (int f = 0; f < ntr.length; f++) {
                if (abandoned) {
                    return;
                }
                if (stop != null && stop.exists()) {
                    if (settle(FAILED, f + 1, WekaBatch.STOPPED)) {
                        WekaBatch.noteStop(f + "/" + ntr.length);
                    }
                    return;
                }
                int[] tr = Arrays.copyOfRange(idx, off, off + ntr[f]);
                off += ntr[f];
                int[] te = Arrays.copyOfRange(idx, off, off + nte[f]);
                off += nte[f];
                fold = f + 1;
                fitState.set(1);
                fitStart = System.nanoTime();
                int[] pr;
                try {
                    pr = batch.fitPredict(className, options, tr, te);
                } catch (Throwable e) {
                    if (!abandoned) {
                        settle(FAILED, f + 1, e.toString());     // class name: message
                    }
                    return;
                } finally {
                    fitStart = 0L;
                    if (fitState.getAndSet(0) == 2) {
                        ABANDONED.decrementAndGet();       // the abandoned fit has ended
                    }
                }
                if (abandoned) {
                    return;
                }
                System.arraycopy(pr, 0, out, pos, pr.length);
                pos += pr.length;
            }
            settle(DONE, 0, "");
        } catch (Throwable e) {                 // out of memory outside a fit
            settle(FAILED, Math.max(fold, 1), e.toString());
        }
    }

    /**
     * Waits at most millis ms for the design; checks the stop file and the
     * fit's time limit meanwhile.  Returns {@link #RUNNING}, {@link #DONE}
     * or {@link #FAILED}.
     */
    public int await(int millis) {
        long end = System.nanoTime() + millis * 1_000_000L;
        while (true) {
            long left = end - System.nanoTime();
            try {
                if (finished.await(Math.max(0L, Math.min(POLL_MS * 1_000_000L, left)),
                                   TimeUnit.NANOSECONDS)) {
                    return state;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return state;
            }
            if (stop != null && stop.exists()) {
                abandon(WekaBatch.STOPPED, true);
            } else if (limit > 0) {
                long t0 = fitStart;
                if (t0 != 0L && System.nanoTime() - t0 > limitNanos) {
                    abandon(timeoutMessage(limit), false);
                }
            }
            if (state != RUNNING || System.nanoTime() - end >= 0) {
                return state;
            }
        }
    }

    /** Waits until the design ends (or is abandoned); returns its state. */
    public int join() {
        int s;
        while ((s = await(1000)) == RUNNING) {
            // polling: the stop file and the time limit are checked inside
        }
        return s;
    }

    /** Stops the design now (R was interrupted): its fit is abandoned. */
    public void cancel() {
        abandon(WekaBatch.STOPPED, true);
    }

    public int state() {
        return state;
    }

    /** The predictions of all folds (0-based class codes, -1: none); null unless done. */
    public int[] codes() {
        return state == DONE ? out : null;
    }

    /** 1-based fold of the failure (0: none). */
    public synchronized int errorFold() {
        return errorFold;
    }

    /** Message of the failure ("" when none). */
    public synchronized String errorMessage() {
        return errorMessage;
    }

    /** The 1-based fold being fitted now (0 before the first). */
    public int fold() {
        return fold;
    }
}
