package dev.spool.agent.jul;

import java.util.List;

/**
 * {@code SimpleFormatter} format strings as real projects configure them (data values, each with
 * where it was found: a public repository and file, or, where the code index named none, the
 * index's file id), plus edge cases of {@code java.util.Formatter}'s syntax.
 */
public final class SimpleFormatCorpus {

    private SimpleFormatCorpus() {}

    static final List<String> REAL_WORLD = List.of(
            // the JDK's default (SimpleFormatter javadoc, jdk.internal.logger.SimpleConsoleLogger)
            "%1$tb %1$td, %1$tY %1$tl:%1$tM:%1$tS %1$Tp %2$s%n%4$s: %5$s%6$s%n",
            // the JDK's own conf/logging.properties example (e.g. SerenityOS/serenity
            // Ports/jdk/jdk-jdk-18-10/src/java.logging/share/conf/logging.properties; rackilea/diplomski javaFiles/fragment_384714.java)
            "%4$s: %5$s [%1$tc]%n",
            // rackilea/diplomski javaFiles/fragment_384714.java: a Logback pattern by mistake (invalid: the JDK uses its default)
            "%d{dd-MM-yyyy HH:mm:ss.SSS} %magenta([%thread]) %highlight(%-5level) %logger{36}.%M - %msg%n",
            // dubasdey/log4j2-jsonevent-layout src/test/java/org/erc/log4j2/layout/LoggerConfig.java
            "%1$tY-%1$tm-%1$td %1$tH:%1$tM:%1$tS.%1$tL %4$-7s [%3$s] (%2$s) %5$s %6$s%n",
            // gochaorg/q2 q2-jetty/src/main/groovy/xyz/cofe/q2/jetty/JUL.groovy
            "%1$tY-%1$tm-%1$td %1$tH:%1$tM:%1$tS %4$s %3$s %5$s%6$s%n",
            // GreenBlitz/Deep-Space-Robot src/main/java/edu/greenblitz/utils/Logging.java
            "%1$tH:%1$tM:%1$tS %1$tL [%4$s] {%2$s}: %5$s%6$s%n",
            // code index file 21293222861 (a test's generated logging.properties)
            "%1$tF %1$tT.%1$tL %4$s %5$s %6$s%n",
            // code index file 69145364576 (a chat server's start script, -D)
            "%1$tF %1$tT [%4$s] %3$s - %5$s%n",
            // code index files 26763654295, 28334789290 (a properties text block: a literal backslash-n, no newline)
            "(%3$s) | %4$s | %5$s\\n",
            // code index file 555156821 (a logging tutorial's logging.properties)
            "%1$tY-%1$tm-%1$td %1$tH:%1$tM:%1$tS %4$-6s %2$s %5$s%6$s%n",
            // code index file 2453174065 (JediTerm's example app), 45412638, 48155975629
            "[%1$tF %1$tT] [%4$-7s] %5$s %n",
            // code index file 44758422775 (org.psem2m.utilities CXLoggerUtils)
            "%1$tY/%1$tm/%1$td %1$tH-%1$tM-%1$tS.%1$tL|%3$30.30s|%4$8.8s| %5$s%6$s%n",
            // code index file 19142126110 (MockServer's logging configuration)
            "%1$tF %1$tT  %3$s  %4$s  %5$s %6$s%n",
            // code index file 6608372321 (a clojure tools.logging start script)
            "%1$tF %1$tT %4$s: %5$s%6$s%n",
            // code index file 70725810246 (tiffinbox-web logging.properties)
            "%5$s%n",
            // code index file 28391577754 (a logging.properties with FileHandler.append)
            "[%1$tc] %4$s: %5$s {%2$s}%6$s%n",
            // code index file 35266938350 (a README's logging.properties)
            "%1$tH:%1$tM:%1$tS.%1$tL [%4$s] %3$s - %5$s%n",
            // code index files 40060135803, 947534135 (a generated logging.properties)
            "%1$tY-%1$tm-%1$td %1$tH:%1$tM:%1$tS.%1$tL %4$s: %5$s [%2$s]%6$s%n",
            // code index file 42558154742 (debugtrace's logging.properties)
            "[Jdk] %1$tY-%1$tm-%1$td %1$tH:%1$tM:%1$tS.%1$tL %5$s%n",
            // code index file 18415491935 (Log4j's Log4jBridgeHandler javadoc)
            "JUL:  %1$tT.%1$tL %4$s [%3$s: %2$s]  -  %5$s%6$s%n",
            // code index file 69079634991 (a KVM client's logging.properties)
            "[%4$s] %1$tF %1$tT: %5$s%6$s%n",
            // code index files 16049498253, 3062909194, 29701904481 (OpenTelemetry examples)
            "[%1$tY-%1$tm-%1$td %1$tH:%1$tM:%1$tS] [%4$-7s] %5$s%6$s%n",
            // code index file 7377411588 (a Spring tutorial)
            "[%1$tF %1$tT] [%4$s] {%2$s} %5$s %n",
            // code index file 46255603579 (a Tomcat 9 install script)
            "[tomcat9][%4$s][%3$s] %5$s%6$s%n",
            // code index file 31492411505
            "[%1$tm/%1$td %1$tT][%3$10s][%4$s] %5$s %n",
            // code index file 1402388270 (Qpid Proton's trace logging docs)
            "[%1$tF %1$tr] %3$s %4$s: %5$s %n",
            // code index file 47191580678
            "%4$s %2$s %5$s%6$s%n",
            // code index file 16817594352
            "%4$s: %5$s %n",
            // code index file 30244500052: "%t]" is no conversion (invalid: the JDK uses its default)
            "%4$s: %5$s [%t] %6$s%n",
            // code index file 19735879134 (a compiler test's -D)
            "%4$s %5$s%6$s%n",
            // psymbolic LoggingUtils (code index, "[%3$s] %5$s %6$s%n")
            "[%3$s] %5$s %6$s%n");

    /** java.util.Formatter syntax the real-world formats do not cover. */
    static final List<String> EDGE_CASES = List.of(
            "%1$tQ %1$ts %1$tN %1$tz %1$tZ %1$tj %1$tA %1$tB %1$tC %1$ty %1$te %1$tk %1$tI %1$tR %1$tD %1$tr%n",
            "%1$Tc|%1$TB|%1$TA|%1$Tp|%4$S|%3$S%n",
            "%s %s %s %s %s %s%n",
            "%1$tH:%<tM:%<tS.%<tL %4$s %<s %5$s%n",
            "%2$-40.20s|%3$10.3s|%4$-3s|%5$.5s%6$s%%%n",
            "100%% %5$s %1$s%n",
            "%5$10s|%5$-10s|%6$.0s%n",
            "%1$-30tc|%1$30TB|%1$#tH%n",
            "%3$b %3$h %4$c%n".replace("%4$c", "%4$s"),
            "%1$tL%1$tN%1$tQ%n",
            "%5%|%-5%|%n",
            "no specifier at all",
            "");

    public static final List<String> ALL = concat();

    private static List<String> concat() {
        List<String> all = new java.util.ArrayList<>(REAL_WORLD);
        all.addAll(EDGE_CASES);
        return List.copyOf(all);
    }
}
