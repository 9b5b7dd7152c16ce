package dev.spool.agent.logback;

import java.util.List;

/**
 * Logback patterns as public projects configure them (their {@code logback.xml}, programmatic
 * {@code PatternLayoutEncoder} set-ups and Spring Boot's documented defaults, found with a code
 * search; only the pattern strings are kept, with Spring's {@code ${...}} properties resolved to
 * their defaults and its own {@code %clr}/{@code %wEx} converters replaced by Logback's
 * {@code %cyan}/{@code %xEx}), then a few that exercise what the public ones rarely do.
 */
final class LogbackPatternCorpus {

    static final List<String> PUBLIC = List.of(
            "%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level [%thread] %logger{36} trace=%X{traceId} - %msg%n",
            "%d{yyyy-MM-dd HH:mm:ss}|%msg%n",
            "%d{HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n",
            "%d{yyyy-MM-dd HH:mm:ss} [%X{traceId:-}] [%thread] %-5level %logger{36} - %msg%n",
            "%d{yyyy-MM-dd HH:mm:ss} [%thread] %-5level %logger{36} - %msg%n",
            "%d{HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n",
            "%d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n",
            "%d{ISO8601} [%thread] %-5level %logger{36} - %msg%n",
            "%d{HH:mm:ss} [%thread] %-5level %logger{36} - %msg%n",
            "%-5level %logger{36} - %msg%n",
            "%-5level [%thread] %date{ISO8601} %F:%L - %msg%n",
            "%-5p [%d{ISO8601,UTC}] [%thread] %c: %m%n%rootException",
            "%-4relative [%thread] %-5level %logger{35} - %msg %n",
            "%-5relative %-5level %logger{35} - %msg%n",
            "%-5level %logger{0} - %msg%n",
            "%d{HH:mm:ss.SSS} %-5level [%X{traceId}] %logger{36} - %msg%n",
            "%d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level [%X{requestId:-NO_REQUEST_ID}] %logger{36} - %msg%n",
            "%d{yyyy-MM-dd HH:mm:ss.SSS} %5p --- [%15.15t] %-40.40logger{39} : %m%n%xEx",
            "%cyan(%d{yyyy-MM-dd HH:mm:ss.SSS}) %5p %magenta(12345) %cyan(---) %cyan([%15.15t]) %cyan(%-40.40logger{39}) %cyan(:) %m%n%xEx",
            "%d{HH:mm:ss.SSS} %highlight(%-5level) [%thread] %cyan(%-40.40logger{39}) : [%X{tenant_id:-no-tenant}] [%X{request_id:-no-req}] %msg%n",
            "%highlight(%-5level) %white(%-23class{0}) %message%n",
            "%date{yyyy-MM-dd HH:mm:ss.SSS} %highlight(%-5level) %([%thread])  %cyan(%logger) : %msg%n",
            "%d{HH:mm:ss.SSS} %highlight(%-5level) [%thread] %cyan(%logger{36}) - %msg%n",
            "%white(%d{ISO8601}) %highlight(%-5level) [%yellow(%t)] : %msg%n%throwable",
            "%d{yyyy-MM-dd HH:mm:ss} %green([%thread]) %highlight(%-5level) %boldMagenta(%logger{15}) - %cyan(%msg%n)",
            "%green(%d{yyyy-MM-dd HH:mm:ss.SSS}) %highlight(%-5level) [%yellow(%thread)] %logger Line:%-3L traceId:[%red(%X{traceXId})] - %msg%n",
            "[%thread] %highlight(%-5level) %cyan(%logger{15}) - %msg %n",
            "%d{ss.SSS} %highlight(%-5level) %blue(%-30logger{30}:%-4line) %thread %msg%n",
            "%yellow(%date{yyyy-MM-dd HH:mm:ss}) |%highlight(%-5level) |%blue(%thread) |%blue(%file:%line) |%green(%logger) |%cyan(%msg%n)",
            "%d{yyyy-MM-dd HH:mm:ss.SSS} %5p 4242 --- [%t] [%X{traceId}] %-40.40logger{39} : %m%n",
            "%d{HH:mm:ss} [%thread] %-5level %logger{36} - %replace(%msg){'[\\r\\n]','_'}%n");

    /** Converters and modifiers the public patterns rarely use. */
    static final List<String> EDGES = List.of(
            "%d %level %logger %thread %msg%n",
            "%date{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %le %lo %t %m%n",
            "%d{\"EEE, d MMM yyyy HH:mm:ss.SSSS Z\", Australia/Lord_Howe} %.-1level %c{1} %.-10t%n",
            "%d{SSS HH:mm:ss.SSS, Asia/Kolkata} %-10.10level|%10.-10logger{5}|%-20.20thread|%30.-30msg|%n",
            "%d{HH:mm:ss.SS} %d{mm:ss.S} %d{A} %d{n} %p %m%n",
            "%marker %-10marker [%mdc] [%X] [%X{user}] [%-8X{user:-anon}] [%.3X{traceId}] %m%n",
            "%-5level %logger{1} %logger{5} %logger{10} %logger{15} %logger{24} %logger{-1} - %m%ex{2}%n",
            "%d{yyyy-MM-dd HH:mm:ss.SSS, America/New_York} %p %m %rEx{short}%n",
            "%d{\"dd MMM yyyy HH:mm:ss,SSS\", Europe/London} [%thread] %level %logger{20} %xEx{full} %msg%n",
            "%d{yyyy} ü€😀 %m%nEnd",
            "%contextName %relative %m%n",
            "%caller{2} %m%n",
            "%C.%M:%L %m%n");

    private LogbackPatternCorpus() {
    }
}
