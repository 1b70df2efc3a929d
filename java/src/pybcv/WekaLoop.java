package pybcv;

import java.io.BufferedReader;
import java.io.FileReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

import weka.classifiers.AbstractClassifier;
import weka.classifiers.Classifier;
import weka.core.Attribute;
import weka.core.DenseInstance;
import weka.core.Instance;
import weka.core.Instances;
import weka.core.Utils;

/**
 * The speed anchor of benchmarks/bridge.py: a plain Java loop of Weka fits,
 * no R and no bridge.
 *
 * <pre>
 * java -cp weka.jar:R/inst/java/pybcv-weka.jar pybcv.WekaLoop DIR WARMUP CLASSNAME [OPTIONS...]
 * </pre>
 * DIR holds set_0000.arff, set_0000.splits, set_0001.arff, ... (the class is
 * the first attribute; a .splits file has two lines per fold, the 0-based
 * training then test indices, space-separated).  Set 0 is run WARMUP times
 * untimed (JIT); then every other set is run, timed with nanoTime (the
 * fastest of {@link #PASSES} passes is reported): per
 * fold a new Instances of the training rows, a new classifier (options set
 * when given), buildClassifier, classifyInstance for each test row.  A fold
 * whose training rows lack a class is trained with that class dropped from
 * the class attribute, as RWeka's {@code fun(y ~ ., data = d[tr, ])} after
 * {@code droplevels()} sees it (the Instances of WekaBatch).
 * Prints "fits N seconds S cpu C" (C: CPU seconds of the whole JVM process,
 * all threads, over the same pass) and writes DIR/pred_CLASSNAME.txt (the predicted
 * class indices, one line per fold) for the identity check.
 */
public final class WekaLoop {

    /** Timed passes over the sets (the fastest is reported): 3, or the system property pybcv.passes. */
    static final int PASSES = Integer.getInteger("pybcv.passes", 3);

    private WekaLoop() {
    }

    static int[][] readSplits(Path p) throws IOException {
        List<int[]> out = new ArrayList<>();
        for (String line : Files.readAllLines(p)) {
            String t = line.trim();
            if (t.isEmpty()) {
                out.add(new int[0]);
                continue;
            }
            String[] f = t.split(" ");
            int[] a = new int[f.length];
            for (int i = 0; i < f.length; i++) {
                a[i] = Integer.parseInt(f[i]);
            }
            out.add(a);
        }
        return out.toArray(new int[0][]);
    }

    static int[][] design(Instances data, int[][] splits, String cls, String[] opts)
            throws Exception {
        int nClasses = data.numClasses();
        int[][] pred = new int[splits.length / 2][];
        for (int f = 0; f < splits.length / 2; f++) {
            int[] tr = splits[2 * f];
            int[] te = splits[2 * f + 1];
            // the classes of the training rows; when one is absent, the fold is trained
            // as R's fun(y ~ ., data = d[tr, ]) trains it after droplevels(): a class
            // attribute with the present classes only (Weka's JRip, for one, depends on it)
            int[] toHeader = new int[nClasses];
            for (int i : tr) {
                toHeader[(int) data.instance(i).classValue()] = 1;
            }
            int present = 0;
            for (int c = 0; c < nClasses; c++) {
                toHeader[c] = toHeader[c] == 1 ? present++ : -1;
            }
            Instances header = data;
            int[] toData = null;
            if (present < nClasses) {
                toData = new int[present];
                ArrayList<String> lv = new ArrayList<>();
                for (int c = 0; c < nClasses; c++) {
                    if (toHeader[c] >= 0) {
                        toData[toHeader[c]] = c;
                        lv.add(data.classAttribute().value(c));
                    }
                }
                ArrayList<Attribute> atts = new ArrayList<>();
                atts.add(new Attribute(data.classAttribute().name(), lv));
                for (int j = 1; j < data.numAttributes(); j++) {
                    atts.add((Attribute) data.attribute(j).copy());
                }
                header = new Instances(data.relationName(), atts, 0);
                header.setClassIndex(0);
            }
            Instances train = new Instances(header, tr.length);
            for (int i : tr) {
                if (toData == null) {
                    train.add(data.instance(i));
                } else {
                    double[] v = data.instance(i).toDoubleArray();
                    v[0] = toHeader[(int) v[0]];
                    train.add(new DenseInstance(1.0, v));
                }
            }
            Classifier c = AbstractClassifier.forName(cls, null);
            if (opts.length > 0) {
                ((weka.core.OptionHandler) c).setOptions(opts.clone());
            }
            c.buildClassifier(train);
            pred[f] = new int[te.length];
            for (int t = 0; t < te.length; t++) {
                if (toData == null) {
                    pred[f][t] = (int) c.classifyInstance(data.instance(te[t]));
                } else {
                    double[] v = data.instance(te[t]).toDoubleArray();
                    v[0] = Utils.missingValue();
                    Instance inst = new DenseInstance(1.0, v);
                    inst.setDataset(train);
                    pred[f][t] = toData[(int) c.classifyInstance(inst)];
                }
            }
        }
        return pred;
    }

    /** CPU time of the whole JVM process (all threads: JIT and GC included). */
    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    public static void main(String[] args) throws Exception {
        Path dir = Paths.get(args[0]);
        int warmup = Integer.parseInt(args[1]);
        String cls = args[2];
        String[] opts = new String[args.length - 3];
        System.arraycopy(args, 3, opts, 0, opts.length);
        List<Instances> sets = new ArrayList<>();
        List<int[][]> splits = new ArrayList<>();
        for (int i = 0; ; i++) {
            Path a = dir.resolve(String.format("set_%04d.arff", i));
            if (!Files.exists(a)) {
                break;
            }
            try (BufferedReader r = new BufferedReader(new FileReader(a.toFile()))) {
                Instances d = new Instances(r);
                d.setClassIndex(0);
                sets.add(d);
            }
            splits.add(readSplits(dir.resolve(String.format("set_%04d.splits", i))));
        }
        for (int w = 0; w < warmup; w++) {
            design(sets.get(0), splits.get(0), cls, opts);
        }
        int fits = 0;
        List<int[][]> preds = new ArrayList<>();
        double sec = Double.POSITIVE_INFINITY;
        double cpu = Double.POSITIVE_INFINITY;
        for (int pass = 0; pass < PASSES; pass++) {       // the fastest of PASSES timed passes
            fits = 0;
            preds.clear();
            long c0 = processCpuNanos();
            long t0 = System.nanoTime();
            for (int i = 1; i < sets.size(); i++) {
                preds.add(design(sets.get(i), splits.get(i), cls, opts));
                fits += splits.get(i).length / 2;
            }
            sec = Math.min(sec, (System.nanoTime() - t0) / 1e9);
            cpu = Math.min(cpu, (processCpuNanos() - c0) / 1e9);
        }
        String tag = cls.substring(cls.lastIndexOf('.') + 1) + String.join("", opts);
        try (PrintWriter w = new PrintWriter(dir.resolve("pred_" + tag + ".txt").toFile())) {
            for (int[][] p : preds) {
                for (int[] f : p) {
                    StringBuilder sb = new StringBuilder();
                    for (int k = 0; k < f.length; k++) {
                        if (k > 0) {
                            sb.append(' ');
                        }
                        sb.append(f[k]);
                    }
                    w.println(sb);
                }
            }
        }
        System.out.println("fits " + fits + " seconds " + sec + " cpu " + cpu);
    }
}
