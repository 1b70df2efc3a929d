package pybcv;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import weka.classifiers.AbstractClassifier;
import weka.classifiers.Classifier;
import weka.core.Attribute;
import weka.core.DenseInstance;
import weka.core.Instance;
import weka.core.Instances;
import weka.core.Utils;

/**
 * All fits of a partition design for one Weka classifier, inside the JVM.
 *
 * <p>A data set arrives once (constructor): a numeric matrix in column-major
 * order whose nominal columns hold 0-based level codes, the level names of
 * each nominal column, and the 0-based class codes.  {@link #run} then trains
 * and predicts every (training, test) split of a design in one call and
 * returns the predicted class codes.
 *
 * <p>The Weka {@code Instances} each fold sees are exactly those that RWeka's
 * interface builds for {@code fun(y ~ ., data = d[tr, ])}, with {@code d$y}
 * reduced by {@code droplevels()} (see R/inst/batch.R):
 * <ul>
 * <li>attributes in RWeka's model-frame order: the class first (nominal,
 *     named {@code y}), then the predictors {@code x1..xp} (numeric, or
 *     nominal with all levels of the data set);</li>
 * <li>the class attribute holds only the classes present in the training
 *     rows, in the data set's level order (R's {@code droplevels});</li>
 * <li>training rows in the order of the training indices, weight 1;</li>
 * <li>test rows with a missing class value (RWeka's {@code predict} sends
 *     {@code CLASS = NA}), classified one by one with
 *     {@code classifyInstance}, as RWeka's {@code classifyInstances} does.</li>
 * </ul>
 * The classifier is created by its class name with no options, and
 * {@code setOptions} is called only when options are given (RWeka's
 * {@code RWeka_build_classifier}).  Weka's own filters (SMO's
 * NominalToBinary and Normalize, Logistic's NominalToBinary,
 * ReplaceMissingValues, RemoveUseless) run inside {@code buildClassifier},
 * as they do under RWeka.
 */
public final class WekaBatch {

    private final int n;
    private final int p;
    private final double[][] rows;         // rows[i] = {class code, x1, ..., xp}
    private final int[] y;
    private final String[] classLevels;
    private final ArrayList<Attribute> predictors = new ArrayList<>();
    private final Map<String, Instances> headers = new HashMap<>();

    private int errorFold = 0;
    private String errorMessage = "";

    /** The message of a run that stopped because its stop file appeared. */
    public static final String STOPPED = "stopped: the stop file appeared (Ctrl-C)";

    /** "fold/total" where the last run that saw its stop file stopped ("" when none). */
    private static volatile String lastStop = "";

    /**
     * @param x           predictors, column-major (x[j * n + i]); nominal columns
     *                    hold 0-based level codes; NaN is a missing value
     * @param n           number of records
     * @param nLevels     per predictor: 0 = numeric, else its number of levels
     * @param levelNames  the level names of all nominal predictors, concatenated
     * @param y           0-based class codes
     * @param classLevels the class levels of the data set
     */
    public WekaBatch(double[] x, int n, int[] nLevels, String[] levelNames, int[] y,
                     String[] classLevels) {
        this.n = n;
        this.p = nLevels.length;
        if (x.length != (long) n * p) {
            throw new IllegalArgumentException("x has " + x.length + " values, expected n*p = "
                                               + ((long) n * p));
        }
        if (y.length != n) {
            throw new IllegalArgumentException("y has " + y.length + " values, expected " + n);
        }
        this.y = y.clone();
        this.classLevels = classLevels.clone();
        int off = 0;
        for (int j = 0; j < p; j++) {
            String name = "x" + (j + 1);
            if (nLevels[j] > 0) {
                List<String> lv = Arrays.asList(Arrays.copyOfRange(levelNames, off, off + nLevels[j]));
                off += nLevels[j];
                predictors.add(new Attribute(name, new ArrayList<>(lv)));
            } else {
                predictors.add(new Attribute(name));
            }
        }
        rows = new double[n][p + 1];
        for (int i = 0; i < n; i++) {
            rows[i][0] = y[i];
            for (int j = 0; j < p; j++) {
                rows[i][j + 1] = x[j * n + i];
            }
        }
    }

    public int numRecords() {
        return n;
    }

    /** 1-based fold of the last failure (0: none). */
    public int errorFold() {
        return errorFold;
    }

    /** Message of the last failure ("" when none). */
    public String errorMessage() {
        return errorMessage;
    }

    /**
     * Where the last run stopped on its stop file or on R's interrupt:
     * "f/total" (f folds were done of total), followed by " during the fit of
     * fold k" when a fit was running (and abandoned); "" when no run has
     * stopped so far.
     */
    public static String lastStop() {
        return lastStop;
    }

    static void noteStop(String where) {
        lastStop = where;
    }

    /** The header (no rows) whose class attribute holds the classes flagged in present. */
    private synchronized Instances header(boolean[] present) {   // a job's worker thread
        StringBuilder key = new StringBuilder(present.length);
        for (boolean b : present) {
            key.append(b ? '1' : '0');
        }
        Instances h = headers.get(key.toString());
        if (h == null) {
            ArrayList<String> lv = new ArrayList<>();
            for (int c = 0; c < present.length; c++) {
                if (present[c]) {
                    lv.add(classLevels[c]);
                }
            }
            ArrayList<Attribute> atts = new ArrayList<>(p + 1);
            atts.add(new Attribute("y", lv));
            for (Attribute a : predictors) {
                atts.add((Attribute) a.copy());
            }
            h = new Instances("R_data_frame", atts, 0);
            h.setClassIndex(0);
            headers.put(key.toString(), h);
        }
        return h;
    }

    /** A new classifier as RWeka makes one: by class name, options only when given. */
    static Classifier newClassifier(String className, String[] options) throws Exception {
        Classifier cls = AbstractClassifier.forName(className, null);
        if (options != null && options.length > 0) {
            ((weka.core.OptionHandler) cls).setOptions(options.clone());
        }
        return cls;
    }

    /**
     * Train on rows tr and classify rows te (0-based).  Returns 0-based class
     * codes of the data set; -1 where Weka returns no class (missing value).
     */
    public int[] fitPredict(String className, String[] options, int[] tr, int[] te)
            throws Exception {
        boolean[] present = new boolean[classLevels.length];
        for (int i : tr) {
            present[y[i]] = true;
        }
        int[] toHeader = new int[classLevels.length];     // data set code -> header code
        int[] toData = new int[classLevels.length];       // header code -> data set code
        int k = 0;
        for (int c = 0; c < present.length; c++) {
            if (present[c]) {
                toHeader[c] = k;
                toData[k] = c;
                k++;
            } else {
                toHeader[c] = -1;
            }
        }
        Instances train = new Instances(header(present), tr.length);
        for (int i : tr) {
            double[] v = rows[i].clone();
            v[0] = toHeader[y[i]];
            train.add(new DenseInstance(1.0, v));
        }
        Classifier cls = newClassifier(className, options);
        cls.buildClassifier(train);
        int[] out = new int[te.length];
        for (int t = 0; t < te.length; t++) {
            double[] v = rows[te[t]].clone();
            v[0] = Utils.missingValue();
            Instance inst = new DenseInstance(1.0, v);
            inst.setDataset(train);
            double c;
            try {
                c = cls.classifyInstance(inst);
            } catch (Exception e) {           // RWeka's classifyInstances: NaN
                c = Double.NaN;
            }
            out[t] = Double.isNaN(c) ? -1 : toData[(int) c];
        }
        return out;
    }

    /**
     * Every fold of a design in one call.  idx holds, fold by fold, the
     * training then the test indices (0-based); ntr, nte their lengths.
     * Returns the predictions of all folds concatenated, or null after a
     * failure ({@link #errorFold}, {@link #errorMessage} say where and why).
     */
    public int[] run(String className, String[] options, int[] idx, int[] ntr, int[] nte) {
        return run(className, options, idx, ntr, nte, "");
    }

    /**
     * As {@link #run(String, String[], int[], int[], int[])}, but the run
     * stops once the file stopFile exists ("" or null: never) -- before the
     * next fold, or during a fit, which is then abandoned ({@link WekaJob}) --
     * and returns null with {@link #STOPPED} as its message.  The embedded R
     * cannot be called while it waits for this run, so pybcv's Python side
     * asks for a stop (Ctrl-C) by creating that file (r_bridge/session.py).
     */
    public int[] run(String className, String[] options, int[] idx, int[] ntr, int[] nte,
                     String stopFile) {
        WekaJob job = start(className, options, idx, ntr, nte, stopFile, 0.0);
        job.join();
        errorFold = job.errorFold();
        errorMessage = job.errorMessage();
        return job.codes();
    }

    /**
     * The design started in a worker thread ({@link WekaJob}): the caller
     * polls {@link WekaJob#await} and may {@link WekaJob#cancel} it.  A fit
     * (training and predicting one fold) that takes longer than
     * timeoutSeconds (0: no limit) fails the design at that fold; so does the
     * stop file, before a fold or during its fit.
     */
    public WekaJob start(String className, String[] options, int[] idx, int[] ntr, int[] nte,
                         String stopFile, double timeoutSeconds) {
        WekaJob job = new WekaJob(this, className, options, idx, ntr, nte, stopFile,
                                  timeoutSeconds);
        job.begin();
        return job;
    }
}
