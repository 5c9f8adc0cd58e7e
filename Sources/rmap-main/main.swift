import RMapCommandLine

await RMapCommandLine.main()
