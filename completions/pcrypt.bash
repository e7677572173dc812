# bash completion for pcrypt(1). Installed as share/bash-completion/completions/pcrypt.
# The option lists mirror `pcrypt [COMMAND] --help`; tests/cli/test_completions.sh fails when they drift.

_pcrypt() {
  local cur prev words cword
  if declare -F _init_completion >/dev/null 2>&1; then
    _init_completion -s || return  # -s: `--engine=va` completes like `--engine va`
  else
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    words=("${COMP_WORDS[@]}")
    cword=$COMP_CWORD
    # Without bash-completion, `--engine=va` arrives as the words "--engine" "=" "va".
    if [[ $cur == = ]]; then
      cur=""
    elif [[ $prev == = && $cword -ge 2 ]]; then
      prev=${COMP_WORDS[COMP_CWORD - 2]}
    fi
  fi

  # The command path: the subcommand (and bench's experiment) typed so far.
  local commands="encrypt decrypt verify keygen recipient info rekey mount unmount bench"
  local cmd="" sub="" i
  for ((i = 1; i < cword; i++)); do
    case ${words[i]} in
      encrypt | decrypt | verify | keygen | recipient | info | rekey | mount | unmount | bench | help)
        [[ -z $cmd ]] && cmd=${words[i]} ;;
      keystream | throughput | engines) [[ $cmd == bench && -z $sub ]] && sub=${words[i]} ;;
    esac
  done

  local global="-h --help -V --version -q --quiet -v --verbose"
  local common="-h --help -q --quiet -v --verbose"
  local unlock="-k --key -p --passphrase --passphrase-file --max-kdf-memory --max-kdf-ops --ssh-key-passphrase-file"
  local opts
  case "$cmd${sub:+ $sub}" in
    "") opts="$global" ;;
    encrypt)
      opts="$common -o --output -f --force --progress -k --key -p --passphrase --passphrase-file -r --recipient
            -R --recipients-file -i --identity -j --threads --engine --chunk-size --kdf-memory --kdf-ops --format -a --armor --json
            --raw-key --context --context-file" ;;
    decrypt)
      opts="$common $unlock -o --output -f --force --progress -i --identity --plugin -j --threads --engine --offset
            --length --max-work-factor --json --format --raw-key --context --context-file" ;;
    verify) opts="$common $unlock -i --identity --plugin -j --threads --engine --max-work-factor --json --format
            --raw-key --context --context-file" ;;
    keygen) opts="$common -o --output -f --force --identity --pq --raw" ;;
    recipient) opts="$common" ;;
    info) opts="$common --json --engines -k --key -i --identity -p --passphrase --passphrase-file --ssh-key-passphrase-file" ;;
    rekey)
      opts="$common $unlock -o --output -f --force -i --identity --add-key --add-recipient --add-recipients-file
            --add-passphrase --add-passphrase-file
            --remove-slot --remove-key --remove-recipient --new-file-key -r --recipient -R --recipients-file
            -j --threads --kdf-memory --kdf-ops
            --max-work-factor" ;;
    mount)
      opts="$common $unlock -i --identity --plugin -j --threads --engine --max-work-factor -f --foreground
            --allow-other" ;;
    unmount) opts="$common" ;;
    bench) opts="-h --help --format --quick --max-samples --max-time --warmups --engine" ;;
    "bench keystream") opts="-h --help --data-size" ;;
    "bench throughput") opts="-h --help --sizes --runs -j --threads --chunk-size --dir" ;;
    "bench engines") opts="-h --help --msg-sizes" ;;
    help) opts="-h --help" ;;
  esac

  case $prev in
    -o | --output | -k | --key | --passphrase-file | -i | --identity | -R | --recipients-file | --add-key | \
      --add-recipients-file | --add-passphrase-file | --remove-key | --ssh-key-passphrase-file | --raw-key | \
      --context-file)
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      compopt -o filenames 2>/dev/null
      return ;;
    --dir)
      mapfile -t COMPREPLY < <(compgen -d -- "$cur")
      compopt -o filenames 2>/dev/null
      return ;;
    --engine)
      mapfile -t COMPREPLY < <(compgen -W "vaes512 vaes aesni armce sodium portable" -- "$cur")
      return ;;
    --format)
      [[ $cmd == bench ]] && mapfile -t COMPREPLY < <(compgen -W "table markdown csv json" -- "$cur")
      [[ $cmd == encrypt ]] && mapfile -t COMPREPLY < <(compgen -W "pcrypt age cobblestone-128 cobblestone-256" -- "$cur")
      [[ $cmd == decrypt || $cmd == verify ]] &&
        mapfile -t COMPREPLY < <(compgen -W "pcrypt age cobblestone-128 cobblestone-256" -- "$cur")
      return ;;
    --raw)
      mapfile -t COMPREPLY < <(compgen -W "16 32" -- "$cur")
      return ;;
    --context)
      return ;;
    -j | --threads | --chunk-size | --kdf-memory | --kdf-ops | --max-kdf-memory | --max-kdf-ops | --max-work-factor | \
      --max-samples | --max-time | --warmups | --data-size | --sizes | --runs | --msg-sizes | --offset | --length | \
      --remove-slot | -r | --recipient | --remove-recipient)
      return ;;  # a number, size, slot number or public key: nothing to offer
  esac

  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
  elif [[ -z $cmd ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$commands help" -- "$cur")
  elif [[ $cmd == help ]]; then
    [[ ${words[cword - 1]} == help ]] && mapfile -t COMPREPLY < <(compgen -W "$commands" -- "$cur")
  elif [[ $cmd == bench && -z $sub ]]; then
    mapfile -t COMPREPLY < <(compgen -W "keystream throughput engines" -- "$cur")
  elif [[ $cmd == mount || $cmd == unmount ]]; then
    # SOURCE (a file or folder) and MOUNTPOINT, or unmount's MOUNTPOINT (a folder).
    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    compopt -o filenames 2>/dev/null
  elif [[ $cmd != keygen && $cmd != bench ]]; then
    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    compopt -o filenames 2>/dev/null
  fi
}
complete -F _pcrypt pcrypt
