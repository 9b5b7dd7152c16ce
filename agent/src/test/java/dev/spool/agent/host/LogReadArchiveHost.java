package dev.spool.agent.host;

import java.io.File;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Test host that looks at its rolled archives right after logging, as Logback's own
 * {@code TimeBasedRollingWithConfigFileTest#timeAndSize} does: a {@code RollingFileAppender}
 * (configured by {@code -Dlogback.configurationFile}) writes {@code <dir>/app.log} and rolls by
 * size into {@code <dir>/arch-<date>.<i>}; after each event the host lists the folder (even
 * events) or checks which archives exist (odd events), and at the end reads every file of the folder
 * in name order. Usage: {@code LogReadArchiveHost <dir> <events>}; prints what it saw.
 */
public final class LogReadArchiveHost {

    public static void main(String[] args) throws Exception {
        File dir = new File(args[0]);
        int events = Integer.parseInt(args[1]);
        Class<?> factory = Class.forName("org.slf4j.LoggerFactory");
        Object logger = factory.getMethod("getLogger", String.class).invoke(null, "host.archive");
        Method info = logger.getClass().getMethod("info", String.class, Object.class);
        String day = LocalDate.now().toString();
        StringBuilder seen = new StringBuilder();
        for (int i = 0; i < events; i++) {
            info.invoke(logger, "archived event {}", i);
            int n = 0;
            if (i % 2 == 0) {
                n = dir.listFiles((d, name) -> name.startsWith("arch-")).length;
            } else {
                while (new File(dir, "arch-" + day + "." + n).exists()) {
                    n++;
                }
            }
            seen.append(i).append(i % 2 == 0 ? " listed " : " exist ").append(n).append('\n');
        }
        File[] all = dir.listFiles((d, name) -> name.startsWith("arch-") || name.equals("app.log"));
        Arrays.sort(all, (a, b) -> order(a.getName()) - order(b.getName()));
        List<String> lines = new ArrayList<>();
        for (File f : all) {
            lines.addAll(Files.readAllLines(f.toPath()));
        }
        Object context = factory.getMethod("getILoggerFactory").invoke(null);
        context.getClass().getMethod("stop").invoke(context);
        System.out.print(seen);
        System.out.println("read " + lines.size() + " lines in " + all.length + " files, first " + lines.get(0)
                + ", last " + lines.get(lines.size() - 1));
    }

    /** Archives by index, then the active file. */
    private static int order(String name) {
        return name.equals("app.log") ? Integer.MAX_VALUE : Integer.parseInt(name.substring(name.lastIndexOf('.') + 1));
    }
}
