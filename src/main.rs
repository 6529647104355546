fn main() {
    println!("tablero");
}
