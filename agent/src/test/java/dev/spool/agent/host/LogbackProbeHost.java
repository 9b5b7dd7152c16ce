package dev.spool.agent.host;

import java.io.File;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.TreeMap;

/**
 * Test host probing what Logback's file appenders look like from the host's side, configured by
 * {@code -Dlogback.configurationFile}. Usage: {@code LogbackProbeHost <dir> <records>}. Logs
 * {@code records} events through SLF4J (reflectively: the test sources need no Logback), and
 * prints after each event the length of every file in {@code dir} ({@code after <i>: name=len ...}),
 * then for each appender the class of {@code getOutputStream()}, then the number of ERROR statuses
 * Logback recorded, then stops the context and prints {@code done}.
 */
public final class LogbackProbeHost {

    public static void main(String[] args) throws Exception {
        File dir = new File(args[0]);
        int records = Integer.parseInt(args[1]);
        Class<?> factory = Class.forName("org.slf4j.LoggerFactory");
        Object logger = factory.getMethod("getLogger", String.class).invoke(null, "host");
        Method info = logger.getClass().getMethod("info", String.class, Object.class);
        for (int i = 0; i < records; i++) {
            info.invoke(logger, "logback probe record {} with some text to make it longer", i);
            System.out.println("after " + i + ": " + lengths(dir));
        }
        Object context = factory.getMethod("getILoggerFactory").invoke(null);
        Object root = context.getClass().getMethod("getLogger", String.class).invoke(context, "ROOT");
        Iterator<?> appenders = (Iterator<?>) root.getClass().getMethod("iteratorForAppenders").invoke(root);
        while (appenders.hasNext()) {
            Object a = appenders.next();
            Object out = a.getClass().getMethod("getOutputStream").invoke(a);
            System.out.println("stream " + a.getClass().getMethod("getName").invoke(a) + ": "
                    + (out == null ? "null" : out.getClass().getName()));
        }
        Object sm = context.getClass().getMethod("getStatusManager").invoke(context);
        List<?> statuses = (List<?>) sm.getClass().getMethod("getCopyOfStatusList").invoke(sm);
        List<String> errors = new ArrayList<>();
        for (Object s : statuses) {
            if ((Integer) s.getClass().getMethod("getLevel").invoke(s) >= 2) {
                errors.add(String.valueOf(s.getClass().getMethod("getMessage").invoke(s)));
            }
        }
        System.out.println("errors " + errors.size() + " " + errors);
        context.getClass().getMethod("stop").invoke(context);
        System.out.println("done");
    }

    private static String lengths(File dir) {
        TreeMap<String, Long> sizes = new TreeMap<>();
        File[] files = dir.listFiles();
        if (files != null) {
            for (File f : files) {
                if (f.getName().endsWith(".log")) {
                    sizes.put(f.getName(), f.length());
                }
            }
        }
        return sizes.toString();
    }
}
