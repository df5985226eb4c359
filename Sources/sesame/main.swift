import SesameCLI

SesameCommandLine.exit(with: SesameCommandLine.run(Array(CommandLine.arguments.dropFirst())))
