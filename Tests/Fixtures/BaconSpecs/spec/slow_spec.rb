describe 'Slow' do
  it 'sleeps 50 ms' do
    sleep 0.05
    true.should.be.true
  end
end
